"""Fix: two heads on one trunk, losses summed into a single backward (default DDP)."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="fixed-sum-losses",
    description="fix: (loss_a + loss_b).backward() on default DDP; completes, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.head_a(h), self.head_b(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        out_a, out_b = model(torch.randn(8, 4))
        (out_a.pow(2).mean() + out_b.abs().mean()).backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("2 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
