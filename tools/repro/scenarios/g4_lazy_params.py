"""nn.LazyLinear wrapped in DDP before any forward has fixed its input size."""

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="lazy-linear-wrapped-before-forward",
    description="DDP() of a model with nn.LazyLinear before a dummy forward raises",
    expect="fail",
    key_text=(
        "Modules with uninitialized parameters can't be used with `DistributedDataParallel`.",
    ),
)


def main(rank, world_size):
    model = DDP(nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1)))
    del model


if __name__ == "__main__":
    launch(main, SCENARIO)
