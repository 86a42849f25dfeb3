"""Experiment: static_graph=True + reentrant activation checkpointing, no no_sync().

One of the seed entry's contexts ("gradient checkpointing under DDP ... can
re-fire hooks").  On current torch this does NOT reproduce the assert: the
run completes and gradients are equal across ranks.  Kept as a recorded
non-reproduction.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import NO_REPRO, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="static-graph-reentrant-checkpoint",
    description="static_graph=True + checkpoint(use_reentrant=True), no no_sync(): no assert",
    expect="complete",
    role=NO_REPRO,
    key_text=("gradients equal across ranks",),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, 8)
        self.block = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        h = self.embed(x)
        h = checkpoint(self.block, h, use_reentrant=True)
        return self.head(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).pow(2).mean().backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
