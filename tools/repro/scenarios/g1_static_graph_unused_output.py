"""static_graph=True, forward returns two outputs and the loss uses only one.

The graph really is the same every iteration, but the second output's layer
never gets a gradient.  DDP's static-graph bookkeeping still ends up waiting for
it (pytorch/pytorch#97030, #79171), and a later forward raises the static-graph
wording of "Expected to have finished reduction in the prior iteration".
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="static-graph-output-not-in-loss",
    description="static_graph=True, forward returns (a(x), b(x)), loss uses a; a forward raises",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one.",
        "this is not compatible with static_graph set to True.",
    ),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        return self.a(x), self.b(x)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(4):
        out_a, _ = model(torch.randn(8, 4))
        out_a.pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
