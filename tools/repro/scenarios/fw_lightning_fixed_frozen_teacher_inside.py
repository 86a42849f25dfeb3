"""Fix, in Lightning: the entry's own Lightning snippet (a LightningModule holding a trainable
student beside the teacher it freezes), rendered as the wizard renders it and taken into the
user's distillation module, fits on two CPU processes under torchrun, the student's gradients
equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.distill_support import LightningDistillation, teacher_network
from tools.repro.framework_support import (
    network,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="lightning-fixed-frozen-teacher-inside",
    description="fix in Lightning 2.6.6: the snippet, a trainable student beside a frozen teacher",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("do-not-wrap-frozen", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))

    class Distill(LightningDistillation, snippet["Distill"]):
        pass

    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=Distill(network(), teacher_network()))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
