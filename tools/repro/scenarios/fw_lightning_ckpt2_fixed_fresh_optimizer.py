"""Fix, in Lightning: the entry's own Lightning snippet (LitModel.load_from_checkpoint for the
weights, then trainer.fit(model) without ckpt_path, so that configure_optimizers builds a fresh
optimizer), rendered as the wizard renders it, resumes the weights of the checkpoint saved with
the head optimized only; the module, now optimizing every parameter, trains its snippet's 20
epochs on two CPU processes under torchrun with gradients equal across ranks at every step.
"""

import torch

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    lightning_machine,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import gradient_check
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="optimizer-state-mismatch",
    variant="lightning-fixed-fresh-optimizer",
    description="fix in Lightning 2.6.6: the snippet, load_from_checkpoint then fit(model)",
    expect="complete",
    role=FIXED,
    key_text=(
        "weights resumed, fresh optimizer of 4 parameters",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("rebuild-the-saved-param-groups", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    head_only = lit_module_class(rank, optimized=lambda module: module.net[2].parameters())
    saved = head_only()
    save_lightning_checkpoint(saved, world_size)
    steps = []
    with lightning_machine(
        world_size, enable_checkpointing=False, callbacks=[gradient_check(steps)]
    ):
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet), LitModel=lit_module_class(rank)
        )
    model, trainer = names["model"], names["trainer"]
    assert torch.equal(model.net[2].weight, saved.net[2].weight) or trainer.global_step
    assert len(trainer.optimizers[0].param_groups[0]["params"]) == 4
    if rank == 0:
        print("weights resumed, fresh optimizer of 4 parameters")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
