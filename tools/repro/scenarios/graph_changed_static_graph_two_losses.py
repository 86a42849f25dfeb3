"""static_graph=True, two losses of one forward backwarded separately (no no_sync()).

The seed entry lists "models returning several tensors that are each
backwarded separately" (historically the assert, pytorch#106953 on torch 2.0).
On current torch iteration 1 passes (with the second backward silently not
all-reduced) and iteration 2 raises the static-graph "graph has changed" error.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="static-graph-two-losses-separate-backward",
    description="static_graph=True, two losses backwarded separately; iteration 2 raises",
    expect="fail",
    key_text=("RuntimeError: Your training graph has changed in this iteration",),
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
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        out_a, out_b = model(torch.randn(8, 4))
        loss_a, loss_b = out_a.pow(2).mean(), out_b.abs().mean()
        loss_a.backward(retain_graph=True)
        loss_b.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
