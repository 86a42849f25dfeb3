"""A LightningModule ported from a GPU script that still wraps its network itself, with
device_ids=[local_rank], in configure_model: on a CPU the module is on no GPU, and DDP's
constructor refuses the device_ids, on two CPU processes under torchrun.
"""

import os

import lightning.pytorch as pl
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="lightning-device-ids-by-hand",
    description="Lightning 2.6.6 on CPU: DDP(net, device_ids=[local_rank]) in configure_model",
    expect="fail",
    role=BROKEN,
    key_text=(
        "DistributedDataParallel device_ids and output_device arguments only work with "
        "single-device/multiple-device GPU modules or CPU modules",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class WrapsItself(lightning_module_class()):
    def configure_model(self):
        local_rank = int(os.environ["LOCAL_RANK"])
        self.net = DDP(self.net, device_ids=[local_rank])


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=WrapsItself())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
