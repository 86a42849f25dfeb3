"""Ranks with different numbers of batches (uneven shards, no drop_last).

Rank 0 gets 2 batches and leaves the loop; rank 1 gets 4 and its third
backward all-reduces with nobody.  It waits until the process-group timeout.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    shows="gloo-collective-timeout",
    variant="more-batches-on-one-rank",
    description="rank 0 has 2 batches, rank 1 has 4; the longer rank hangs until the timeout",
    expect="fail",
    key_text=("Timed out waiting",),
    pg_timeout_s=8.0,
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(2 if rank == 0 else 4)]  # uneven shards
    for step, x in enumerate(batches):
        model(x).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
