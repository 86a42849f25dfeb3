"""DIST-004 fix: start exactly world_size processes, all pointing at rank 0.

The world size is derived from the number of processes actually started
(torchrun's WORLD_SIZE, or nprocs for torch.multiprocessing.spawn), so every
rank joins the store and training proceeds with equal gradients.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="dist-store-timeout",
    variant="fixed-world-size-matches-processes",
    description="fix: world_size equals the processes started; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    pg_timeout_s=8.0,
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print(f"world of {world_size}: 1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)  # spawn: nprocs == world_size; torchrun: WORLD_SIZE from the launcher
