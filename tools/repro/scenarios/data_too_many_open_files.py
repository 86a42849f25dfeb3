"""DATA-003: the file_descriptor sharing strategy runs out of the open-file limit.

Linux's default sharing strategy passes each tensor a worker returns as an open file
descriptor, and the receiving process keeps it open while the tensor lives. Each sample is a
list of 32 small tensors (so each batch is 32 shared tensors), the loop keeps every batch it
has seen, and the rank's open-file limit (set once the worker has started, as a low
``ulimit -n``) is 64 above what it had open: within a few batches the rank cannot take the
next one: the file descriptor a worker sends cannot be received (on torch 2.13.0
multiprocessing's "received 0 items of ancdata", before the DataLoader's own check).
"""

from tools.repro.data_support import limit_open_files
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="dataloader-too-many-open-files",
    variant="file-descriptor-strategy-low-ulimit",
    description="broken: batches of 32 tensors kept by the loop under an open-file limit 64 above",
    expect="fail",
    role=BROKEN,
    key_text=("received 0 items of ancdata",),
)

TENSORS_PER_SAMPLE = 32
HEADROOM = 64


class ManyTensors:
    """Each sample is a list of small tensors (per-token features, nested targets)."""

    def __len__(self):
        return 64

    def __getitem__(self, index):
        import torch

        return [torch.full((8,), float(index + k)) for k in range(TENSORS_PER_SAMPLE)]


def main(rank, world_size):
    from torch.utils.data import DataLoader

    batches = iter(DataLoader(ManyTensors(), batch_size=2, num_workers=1, timeout=30))
    limit_open_files(HEADROOM)
    kept = []
    for step, batch in enumerate(batches):
        kept.append(batch)  # the loop keeps what it read (for logging, for an epoch's metrics)
        print(f"rank {rank}: step {step}, {len(kept) * len(batch)} tensors kept", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
