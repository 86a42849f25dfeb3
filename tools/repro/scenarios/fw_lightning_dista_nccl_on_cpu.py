"""Lightning's DDPStrategy told to use NCCL (process_group_backend="nccl") on a machine without
a GPU, the CPU build of torch: creating the process group fails, on two CPU processes under
torchrun, because that torch has no NCCL at all.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="lightning-nccl-on-cpu",
    description="Lightning 2.6.6, torch 2.13.0+cpu: DDPStrategy(process_group_backend='nccl')",
    expect="fail",
    role=BROKEN,
    key_text=("Distributed package doesn't have NCCL built in", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=DDPStrategy(process_group_backend="nccl"))
    fit_lightning(trainer, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
