"""Fix for the count mismatch: the same requires_grad flags on every rank before wrapping."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="fixed-same-frozen-layers-on-every-rank",
    description="fix: every rank freezes the same layer before DDP(); trains, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)

FREEZE_FIRST_LAYER = True  # decided once, identically on every rank


def main(rank, world_size):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    if FREEZE_FIRST_LAYER:
        net[0].requires_grad_(False)
    model = DDP(net)
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
