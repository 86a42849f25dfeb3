"""Fix: the same layer checkpointed twice, but with use_reentrant=False.

Non-reentrant checkpointing recomputes inside the ONE backward pass without a
nested backward, so each parameter's hook fires once per iteration.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="fixed-non-reentrant-checkpoint",
    description="fix: checkpoint(l1, use_reentrant=False) twice in one forward; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = nn.Linear(4, 8)
        self.l1 = nn.Linear(8, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.l0(x)
        h = checkpoint(self.l1, h, use_reentrant=False)
        h = checkpoint(self.l1, h, use_reentrant=False)
        return self.l2(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("2 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
