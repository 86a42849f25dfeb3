"""find_unused_parameters=True on a model whose parameters are all used.

Not an error: the reducer walks the autograd graph after every forward looking
for unused parameters, finds none, and warns once per process (a c10 warning
from reducer.cpp, printed by the autograd thread) that the flag only costs time.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="find-unused-all-params-used",
    description="find_unused_parameters=True, every parameter used; warns, completes",
    expect="complete",
    key_text=(
        "Warning: find_unused_parameters=True was specified in DDP constructor, "
        "but did not find any unused parameters in the forward pass.",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(
        nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), find_unused_parameters=True
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"rank {rank}: 3 steps done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
