"""Lightning's DDP strategy and a LightningModule fed float64 batches from NumPy (torch.from_numpy
keeps NumPy's float64): the float32 network refuses them in its first Linear, inside
training_step, on two CPU processes under torchrun.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_numdevcomp_support import float64_pairs, regression_module_class
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="lightning-float64-batch",
    description="Lightning 2.6.6: float64 NumPy batches into a float32 module, strategy='ddp'",
    expect="fail",
    role=BROKEN,
    key_text=(
        "mat1 and mat2 must have the same dtype, but got Double and Float",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(
        trainer,
        rank,
        check=False,
        module=regression_module_class()(),
        dataloader=float64_pairs(rank),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
