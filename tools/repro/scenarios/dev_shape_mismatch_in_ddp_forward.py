"""DEV-004 inside DDP: an ordinary shape bug in a DDP forward is the shape mismatch, not a DDP
failure (no DDP entry may take it)."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="shape-mismatch-in-forward",
    description="broken: Linear(16, 1) fed 12 features inside DDP forward (mat1 and mat2)",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x12 and 16x1)",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(16, 1)))  # 12 != 16
    model(torch.randn(8, 4)).mean().backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
