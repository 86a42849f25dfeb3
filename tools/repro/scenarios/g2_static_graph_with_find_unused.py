"""_set_static_graph() on a DDP model built with find_unused_parameters=True.

Training works; DDP warns that static_graph finds unused parameters by itself.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="set-static-graph-with-find-unused",
    description="find_unused_parameters=True then _set_static_graph(); warns, completes",
    expect="complete",
    key_text=("`_set_static_graph` will detect unused parameters automatically",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(
        nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), find_unused_parameters=True
    )
    model._set_static_graph()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _step in range(2):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"rank {rank}: 2 steps done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
