"""DATA-001: DataLoader workers fill a small /dev/shm with the batches they keep in flight.

Each rank gets a private mount namespace with a 16 MiB tmpfs over /dev/shm, as a container
started without --shm-size gets 64 MiB. Four workers, each keeping two 4 MiB batches ready
(prefetch_factor 2), need about 32 MiB of shared memory: the workers fail to place a batch in
/dev/shm, and the rank raises the DataLoader's error.
"""

from tools.repro.data_support import MIB, private_shm
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="small-tmpfs-over-dev-shm",
    description="broken: four workers keep 4 MiB batches in flight in a 16 MiB /dev/shm",
    expect="fail",
    role=BROKEN,
    key_text=("No space left on device",),
    # Under torch.multiprocessing.spawn the ranks hung until the DataLoader timeout (not
    # understood yet); torchrun shows the failure every time.
    launchers=("torchrun",),
)

SHM_SIZE = 16 * MIB


class Frames:
    """Samples of 1 MiB (a 512x512 float image); batches of four are 4 MiB."""

    def __len__(self):
        return 64

    def __getitem__(self, index):
        import torch

        return torch.full((512, 512), float(index))


def main(rank, world_size):
    from torch.utils.data import DataLoader

    private_shm(SHM_SIZE)
    loader = DataLoader(Frames(), batch_size=4, num_workers=4, timeout=30)
    for step, batch in enumerate(loader):
        print(f"rank {rank}: step {step}, batch {tuple(batch.shape)}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
