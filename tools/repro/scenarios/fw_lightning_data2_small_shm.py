"""Lightning's DDP strategy fitting on a DataLoader of four workers, each keeping two 4 MiB batches
in flight (prefetch_factor 2), where /dev/shm is a 16 MiB tmpfs (a private mount namespace per
rank, data_support.private_shm, as a container's small /dev/shm), two CPU processes under
torchrun: a worker cannot place its batch in shared memory, and the fit loop raises the
worker's error."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.data_support import private_shm
from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import RankFrames, batch_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.scenarios.data_shm_small_tmpfs import SHM_SIZE

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="lightning-small-tmpfs-over-dev-shm",
    description="Lightning 2.6.6: four workers keep 4 MiB batches in flight in a 16 MiB /dev/shm",
    expect="fail",
    role=BROKEN,
    key_text=("No space left on device", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    private_shm(SHM_SIZE)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    loader = DataLoader(RankFrames(rank), batch_size=4, num_workers=4, timeout=30)
    fit_lightning(trainer, rank, check=False, module=batch_module(), dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
