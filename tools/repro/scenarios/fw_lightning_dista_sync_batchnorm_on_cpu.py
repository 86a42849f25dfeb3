"""pl.Trainer(strategy="ddp", sync_batchnorm=True) on a machine without a GPU: Lightning
converts the module's BatchNorm layers to SyncBatchNorm, and DDP's constructor refuses them on
the CPU, on two CPU processes under torchrun.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_dista_support import batch_normed
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="syncbn-misuse",
    variant="lightning-sync-batchnorm-on-cpu",
    description="Lightning 2.6.6 on CPU: sync_batchnorm=True, a BatchNorm1d in the module",
    expect="fail",
    role=BROKEN,
    key_text=("SyncBatchNorm layers only work with GPU modules", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp", sync_batchnorm=True)
    fit_lightning(trainer, rank, net=batch_normed, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
