"""Accelerate's prepare() given a model with a lazy layer (nn.LazyLinear) that no forward has
materialised yet: prepare wraps it in DDP, which refuses it, on two CPU processes under
torchrun.
"""

import torch
import torch.nn as nn
from accelerate import Accelerator

from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="accelerate-lazy-module-prepared",
    description="Accelerate 1.15.0: a LazyLinear no forward has run, passed to prepare()",
    expect="fail",
    role=BROKEN,
    key_text=("Modules with uninitialized parameters", "accelerate/"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    model = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))
    accelerator = Accelerator(cpu=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = accelerator.prepare(model, optimizer)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
