"""Fix: one dummy forward (same shape on every rank) materialises the lazy parameters."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="fixed-dummy-forward-before-wrapping",
    description="fix: a dummy forward before DDP(); trains, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))
    with torch.no_grad():
        net(torch.zeros(1, 4))  # materialises LazyLinear's weight as (8, 4)
    model = DDP(net)  # DDP broadcasts rank 0's initial values to the other ranks
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
