"""Rank 1 freezes a layer that rank 0 trains, so the ranks count different parameters.

DDP only registers parameters with requires_grad=True, and its constructor
checks that every rank registers as many as rank 0.  Freezing (or attaching an
adapter) on one rank only is enough to fail before the first step.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="layer-frozen-on-rank-1-only",
    description="rank 1 sets requires_grad=False on the first layer; DDP() raises on both ranks",
    expect="fail",
    key_text=("DDP expects same model across all ranks, but Rank",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    if rank == 1:  # e.g. a freeze flag read from a per-node environment variable
        net[0].requires_grad_(False)
    model = DDP(net)
    model(torch.randn(8, 4)).mean().backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
