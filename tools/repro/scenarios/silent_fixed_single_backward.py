"""Fix: one backward per forward (sum the terms); accumulate with the forward INSIDE no_sync()."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="fixed-single-backward",
    description="fix: one backward per forward, forward+backward inside no_sync(); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    torch.manual_seed(rank)

    # One backward for everything computed from this forward.
    out = model(torch.randn(8, 4))
    (out.pow(2).mean() + out.abs().mean()).backward()
    assert grads_match_across_ranks(model), (
        "gradients differ across ranks after the single backward"
    )

    # Accumulation: forward AND backward inside no_sync(), last micro-batch outside.
    model.zero_grad()
    with model.no_sync():
        model(torch.randn(8, 4)).pow(2).mean().backward()
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks after accumulation"
    if rank == 0:
        print("single backward and accumulation: gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
