"""Lightning's DDP strategy and a LightningModule that still creates the process group in its
own setup(), as the plain script it came from did before building the model: the strategy has
created it by then, so init_process_group() refuses, on two CPU processes under torchrun.
"""

import lightning.pytorch as pl
import torch.distributed as dist

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="lightning-init-in-setup",
    description="Lightning 2.6.6: init_process_group() in LightningModule.setup() under DDP",
    expect="fail",
    role=BROKEN,
    key_text=("trying to initialize the default process group twice!", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class LitModel(lightning_module_class()):
    def setup(self, stage):
        dist.init_process_group("gloo")


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=LitModel())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
