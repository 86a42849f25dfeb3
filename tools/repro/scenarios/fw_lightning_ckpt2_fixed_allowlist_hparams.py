"""Fix, in Lightning: the entry's own Lightning snippet (torch.serialization.add_safe_globals
with the hyperparameters' class, then LitModel.load_from_checkpoint), rendered as the wizard
renders it, loads the checkpoint whose hparams hold an HParams dataclass, and the loaded module
trains on two CPU processes under torchrun with gradients equal across ranks at every
optimizer step.
"""

import torch

from tools.repro.ckpt_support import HParams
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    fit_checked,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-load-weights-only",
    variant="lightning-fixed-allowlist-hparams",
    description="fix in Lightning 2.6.6: the snippet, add_safe_globals([HParams]) before loading",
    expect="complete",
    role=FIXED,
    key_text=("loaded with hparams HParams(", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("allowlist-the-globals", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank, config=HParams(hidden=32))
    saved = LitModel()
    save_lightning_checkpoint(saved, world_size)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    model = run_snippet(code, LitModel=LitModel, HParams=HParams)["model"]
    assert model.hparams.config == HParams(hidden=32), model.hparams
    assert torch.equal(model.net[0].weight, saved.net[0].weight)
    if rank == 0:
        print(f"loaded with hparams {model.hparams.config}")
    report_equal_gradients(fit_checked(model, world_size), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
