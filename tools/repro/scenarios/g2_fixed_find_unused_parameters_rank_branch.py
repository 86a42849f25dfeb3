"""Fix: find_unused_parameters=True when a branch is used on some ranks only.

Each rank marks the parameters its own graph did not reach as ready (with a
zero gradient), so every bucket is all-reduced on every rank.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    variant="fixed-find-unused-parameters",
    description="fix: layer used on rank 0 only, find_unused_parameters=True; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    pg_timeout_s=8.0,
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.extra = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, x, use_extra):
        h = torch.relu(self.body(x))
        if use_extra:
            h = h + self.extra(h)
        return self.head(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4), rank == 0).pow(2).mean().backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
