"""Negative: an ordinary shape bug inside a DDP forward (not a DDP failure)."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import NEGATIVE, NEGATIVE_SLUG, Scenario, launch

SCENARIO = Scenario(
    slug=NEGATIVE_SLUG,
    variant="shape-mismatch-in-forward",
    description="negative: Linear(16, 1) fed 12 features inside DDP forward (mat1 and mat2)",
    expect="fail",
    role=NEGATIVE,
    key_text=("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x12 and 16x1)",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(16, 1)))  # 12 != 16
    model(torch.randn(8, 4)).mean().backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
