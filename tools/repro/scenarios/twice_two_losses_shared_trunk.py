"""Two losses sharing a trunk, backwarded separately, on default DDP.

loss_a.backward(retain_graph=True) marks the trunk and head_a ready, but
head_b never gets a gradient, so the reduction is not finished; the second
backward fires the trunk's hooks again -> marked ready twice.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="two-losses-shared-trunk",
    description="default DDP, two heads on one trunk, two losses backwarded separately",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to mark a variable ready only once.",
        "has been marked as ready twice",
    ),
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
    torch.manual_seed(rank)
    out_a, out_b = model(torch.randn(8, 4))
    loss_a, loss_b = out_a.pow(2).mean(), out_b.abs().mean()
    loss_a.backward(retain_graph=True)
    loss_b.backward()
    print(f"rank {rank}: both backward calls finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
