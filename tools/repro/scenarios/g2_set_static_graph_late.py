"""_set_static_graph() called after the first iteration.

The reducer records the graph during the first iteration, so switching
static_graph on once training has started is refused.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="set-static-graph-after-first-iteration",
    description="_set_static_graph() after one training step; raises RuntimeError",
    expect="fail",
    key_text=(
        "set_static_graph() should be called before training loop starts and after "
        "DistributedDataParallel is constructed.",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        if step == 0:
            model._set_static_graph()  # e.g. enabled by a callback once training runs


if __name__ == "__main__":
    launch(main, SCENARIO)
