"""Two losses sharing a trunk, backwarded one after the other without retain_graph (DDP).

The first backward frees the trunk's saved activations; the second backward needs
them and autograd refuses.  This is plain autograd, not DDP: the same loop fails
the same way on one process.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="two-losses-shared-trunk-no-retain-graph",
    description="loss_a.backward(); loss_b.backward() over a shared trunk; second backward raises",
    expect="fail",
    key_text=(
        "RuntimeError: Trying to backward through the graph a second time "
        "(or directly access saved tensors after they have already been freed).",
    ),
)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, x):
        h = torch.tanh(self.trunk(x))
        return self.head_a(h), self.head_b(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads())
    torch.manual_seed(rank)
    out_a, out_b = model(torch.randn(8, 4))
    out_a.pow(2).mean().backward()
    out_b.pow(2).mean().backward()  # the trunk's saved tensors are gone
    print(f"rank {rank}: both backwards finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
