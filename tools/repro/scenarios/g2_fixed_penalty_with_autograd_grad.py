"""Fix: compute the gradient penalty with torch.autograd.grad on the wrapped module, one backward.

torch.autograd.grad(create_graph=True) on `model.module` builds the
higher-order term without touching `.grad` or DDP's reducer; adding it to the
loss leaves one ordinary backward through DDP, whose first-order gradients
(including the penalty's) are all-reduced as usual.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="fixed-penalty-with-autograd-grad",
    description="fix: penalty from autograd.grad on model.module, one backward; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    params = list(model.module.parameters())
    torch.manual_seed(rank)
    for step in range(2):
        x = torch.randn(8, 4)
        inner = model.module(x).pow(2).mean()
        grads = torch.autograd.grad(inner, params, create_graph=True)
        penalty = sum(g.pow(2).sum() for g in grads)
        loss = model(x).pow(2).mean() + penalty
        loss.backward()  # one ordinary backward through DDP
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    if rank == 0:
        print("2 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
