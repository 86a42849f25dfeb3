"""Lightning's DDPStrategy(static_graph=True) and a LightningModule whose auxiliary head joins
the loss after the first step, two CPU processes under torchrun: static_graph took the first
iteration's graph for every iteration's, and the second step's backward reaches a parameter it
did not.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import AuxHeadLater, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="lightning-static-graph-aux-head-later",
    description="Lightning 2.6.6: DDPStrategy(static_graph=True), a head used from step 2",
    expect="fail",
    role=BROKEN,
    key_text=("Your training graph has changed in this iteration", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=DDPStrategy(static_graph=True, process_group_backend="gloo"))
    fit_lightning(trainer, rank, net=AuxHeadLater, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
