"""DATA-005: a lambda as collate_fn, with workers started by spawn.

The spawn start method (Windows, macOS, or chosen with ``multiprocessing_context``) sends the
dataset and the collate function to the worker by pickle, and pickle cannot send a lambda
defined inside a function: iterating the DataLoader raises in the rank before any worker runs.
"""

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="multiprocessing-spawn-pickle",
    variant="lambda-collate-fn-spawn",
    description="broken: collate_fn=lambda in a spawn DataLoader",
    expect="fail",
    role=BROKEN,
    key_text=("Can't pickle local object 'main.<locals>.<lambda>'",),
)


class Squares:
    def __len__(self):
        return 16

    def __getitem__(self, index):
        import torch

        return torch.tensor([float(index) ** 2])


def main(rank, world_size):
    import torch
    from torch.utils.data import DataLoader

    loader = DataLoader(
        Squares(),
        batch_size=4,
        num_workers=1,
        multiprocessing_context="spawn",
        collate_fn=lambda batch: torch.stack(batch) * 0.5,
    )
    for batch in loader:
        print(f"rank {rank}: {batch.sum().item()}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
