"""static_graph=True, a parameter unused in iteration 1 but used in iteration 2.

static_graph records which parameters get gradients in the first iteration
and assumes that never changes.  An "extra" head that is only switched on
from the second iteration (warm-up schedule, curriculum, a rarely-seen data
branch) breaks that promise -> raised from the autograd hook in iteration 2.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="param-unused-first-iteration",
    description="static_graph=True, aux head unused in iteration 1, used in 2; iteration 2 raises",
    expect="fail",
    key_text=("RuntimeError: Your training graph has changed in this iteration",),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.aux_head = nn.Linear(8, 1)

    def forward(self, x, use_aux):
        h = torch.relu(self.body(x))
        out = self.head(h)
        if use_aux:
            out = out + self.aux_head(h)
        return out


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        use_aux = step >= 1  # aux loss switched on after the first iteration
        model(torch.randn(8, 4), use_aux).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done (use_aux={use_aux})")


if __name__ == "__main__":
    launch(main, SCENARIO)
