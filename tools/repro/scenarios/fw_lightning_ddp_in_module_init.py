"""A LightningModule ported from a plain DDP script that still wraps its network in
DistributedDataParallel itself, in __init__: the module is built before trainer.fit, when the
strategy has created no process group yet, so DDP finds no default group, on two CPU processes
under torchrun. The traceback has no Lightning frame: the call is the script's own.
"""

import lightning.pytorch as pl
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.framework_support import network, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="lightning-ddp-in-module-init",
    description="Lightning 2.6.6: DDP(...) by hand in LightningModule.__init__, before fit",
    expect="fail",
    role=BROKEN,
    key_text=("Default process group has not been initialized",),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class LitModel(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = DDP(network())

    def training_step(self, batch, batch_idx):
        return self.net(batch).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=LitModel())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
