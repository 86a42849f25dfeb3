"""static_graph=True, first step under no_sync(), two losses of one forward backwarded separately.

The pattern from pytorch/pytorch#143580: a model with two heads, the first
optimizer step accumulates under no_sync() and calls
loss1.backward(retain_graph=True); loss2.backward().  The reducer was never
armed for that first forward, so the first backward already trips the assert.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="static-graph-no-sync-two-losses",
    description="static_graph=True, two separate backwards in the first no_sync() step (#143580)",
    expect="fail",
    key_text=("RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at", "reducer.cpp"),
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
    model = DDP(TwoHeads(), static_graph=True)
    torch.manual_seed(rank)
    x = torch.randn(8, 4)

    with model.no_sync():
        out_a, out_b = model(x)
        loss_a, loss_b = out_a.pow(2).mean(), out_b.abs().mean()
        loss_a.backward(retain_graph=True)
        loss_b.backward()
    print(f"rank {rank}: first accumulation step finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
