"""backward(create_graph=True) through a DDP module (a gradient penalty computed the naive way).

DDP all-reduces only first-order gradients and says so with a c10 warning
from reducer.cpp; the higher-order graph is not synchronised across ranks.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="backward-create-graph",
    description="loss.backward(create_graph=True) on a DDP model; warns about higher-order grads",
    expect="fail",
    key_text=("Using DistributedDataParallel with create_graph=True",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _step in range(2):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        loss.backward(create_graph=True)  # keep the graph of the gradients
        penalty = sum(p.grad.pow(2).sum() for p in model.parameters())
        penalty.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    print(f"rank {rank}: 2 steps done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
