"""A parameter that never contributes to the loss, with find_unused_parameters=False (the default).

The reducer waits for a gradient for every parameter.  `self.unused` never
gets one, so iteration 1's reduction never finishes, and the NEXT forward
refuses to start.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="unused-param",
    description="a layer defined but not used in forward, default DDP; the second forward raises",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one.",
        "Parameter indices which did not receive grad for rank",
    ),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.unused = nn.Linear(8, 8)  # e.g. a head that the current task does not use

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
