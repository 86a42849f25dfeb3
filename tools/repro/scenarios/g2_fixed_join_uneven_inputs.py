"""Fix: wrap the loop in Join([model]) so a rank that runs out of batches shadows the others.

A rank that has finished joins: it keeps answering the all-reduces of the
ranks that still have batches (with zero gradients), so nobody waits.
"""

import torch
import torch.nn as nn
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    variant="fixed-join",
    description="fix: rank 0 has 2 batches, rank 1 has 4, loop under Join([model]); completes",
    expect="complete",
    role=FIXED,
    key_text=("all ranks done",),
    pg_timeout_s=8.0,
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(2 if rank == 0 else 4)]
    with Join([model]):
        for x in batches:
            model(x).pow(2).mean().backward()
            optimizer.step()
            optimizer.zero_grad()
    print(f"rank {rank}: {len(batches)} batches, all ranks done")


if __name__ == "__main__":
    launch(main, SCENARIO)
