"""Lightning's DDP strategy and a LightningModule built with a lazy layer (nn.LazyLinear) that
no forward has materialised yet: the strategy wraps the module in DDP, which refuses it, on two
CPU processes under torchrun.
"""

import lightning.pytorch as pl
import torch.nn as nn

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="lightning-lazy-module",
    description="Lightning 2.6.6: a LazyLinear no forward has run, under strategy='ddp'",
    expect="fail",
    role=BROKEN,
    key_text=("Modules with uninitialized parameters", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def lazy_network():
    return nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, net=lazy_network, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
