"""Fix for the shape mismatch: every rank builds the model from the same config."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="fixed-same-config-on-every-rank",
    description="fix: the hidden size comes from one shared config; DDP() accepts the model",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)

CONFIG = {"hidden": 4}  # one config, read identically by every rank


def main(rank, world_size):
    torch.manual_seed(0)
    hidden = CONFIG["hidden"]
    model = DDP(nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 1)))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
