"""DATA-006: samples of different lengths stacked by the default collate function.

A dataset of token sequences of two lengths (9 and 12), read by one worker: default_collate
stacks each batch with torch.stack, which needs equal shapes, so the worker's error is re-raised
in the rank as "Caught RuntimeError in DataLoader worker process 0".

The first sample is the short one. With the long one first, torch 2.13.0's collate in a worker
fails before torch.stack, while sizing the batch's shared storage from the first sample:
"RuntimeError: Trying to resize storage that is not resizable" (observed here too).
"""

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="collate-tensor-size-mismatch",
    variant="sequences-of-two-lengths",
    description="broken: default_collate over sequences of lengths 9 and 12",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Caught RuntimeError in DataLoader worker process 0",
        "stack expects each tensor to be equal size, but got [9] at entry 0 and [12] at entry 1",
    ),
)


class Sequences:
    """Token ids of sequences whose length alternates between 9 and 12."""

    def __len__(self):
        return 16

    def __getitem__(self, index):
        import torch

        return torch.arange(9 if index % 2 == 0 else 12)


def main(rank, world_size):
    from torch.utils.data import DataLoader

    for step, batch in enumerate(DataLoader(Sequences(), batch_size=4, num_workers=1)):
        print(f"rank {rank}: step {step}, {tuple(batch.shape)}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
