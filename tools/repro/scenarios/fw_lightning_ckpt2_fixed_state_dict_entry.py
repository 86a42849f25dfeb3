"""Fix, in Lightning: the entry's own Lightning snippet (the checkpoint's "state_dict" entry into
the LightningModule, or LitModel.load_from_checkpoint), rendered as the wizard renders it, loads
last.ckpt both ways, and the loaded module trains on two CPU processes under torchrun with
gradients equal across ranks at every optimizer step.
"""

import torch

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
    slug="state-dict-missing-unexpected-keys",
    variant="lightning-fixed-state-dict-entry",
    description="fix in Lightning 2.6.6: the snippet, ckpt['state_dict'] or load_from_checkpoint",
    expect="complete",
    role=FIXED,
    key_text=("loaded the weights both ways", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("load-the-model-entry-with-matching-keys", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank)
    saved = LitModel()
    save_lightning_checkpoint(saved, world_size)
    first = LitModel()
    names = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=first, LitModel=LitModel
    )
    for loaded in (first, names["model"]):
        assert torch.equal(loaded.net[0].weight, saved.net[0].weight)
    if rank == 0:
        print("loaded the weights both ways")
    report_equal_gradients(fit_checked(names["model"], world_size), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
