"""Fix: DDP(find_unused_parameters=True) for a model with a parameter that gets no gradient.

(Or delete the layer / set requires_grad=False on it, which avoids the extra
graph traversal find_unused_parameters costs every iteration.)
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="fixed-find-unused-parameters",
    description="fix: same unused layer with DDP(find_unused_parameters=True); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.unused = nn.Linear(8, 8)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
