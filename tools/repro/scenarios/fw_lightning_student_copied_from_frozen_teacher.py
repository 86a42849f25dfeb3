"""Lightning's DDP strategy and a distillation LightningModule whose student was copied from
the teacher after the teacher was frozen: the copy is frozen too, so the LightningModule has no
parameter that requires a gradient, and the DDP wrapper the strategy builds refuses it, on two
CPU processes under torchrun.
"""

import copy

import lightning.pytorch as pl

from tools.repro.distill_support import LightningDistillation, teacher_network
from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="lightning-student-copied-from-frozen-teacher",
    description="Lightning 2.6.6: a LightningModule with every parameter frozen, strategy='ddp'",
    expect="fail",
    role=BROKEN,
    key_text=("doesn't have any parameter that requires a gradient", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class Distill(LightningDistillation, pl.LightningModule):
    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher


def main(rank, world_size):
    work_in_temporary_directory()
    teacher = teacher_network().requires_grad_(False).eval()
    student = copy.deepcopy(teacher).train()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=Distill(student, teacher))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
