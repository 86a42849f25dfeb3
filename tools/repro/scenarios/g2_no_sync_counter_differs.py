"""Gradient accumulation with no_sync() whose window differs between ranks.

Each rank decides on its own when to leave no_sync() (here rank 0 accumulates
three micro-batches per optimizer step, rank 1 two, as happens when the
accumulation counter is derived from a per-rank dataloader length or a
rank-dependent skip).  The synchronised backwards then no longer pair up: one
rank waits in an all-reduce the other never starts, until the process-group
timeout.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    shows="gloo-collective-timeout",
    variant="accumulation-window-differs-per-rank",
    description="no_sync() accumulation, 3 micro-batches per step on rank 0, 2 on rank 1; hangs",
    expect="fail",
    key_text=("Timed out waiting",),
    pg_timeout_s=8.0,
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    accumulation_steps = 3 if rank == 0 else 2  # the bug: a per-rank window
    torch.manual_seed(rank)
    for i in range(6):
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        if (i + 1) % accumulation_steps != 0:
            with model.no_sync():
                nn.functional.mse_loss(model(x), y).backward()
        else:
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
            optimizer.zero_grad()
            print(f"rank {rank}: optimizer step after micro-batch {i}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
