"""Fix: let the optimizer clear the gradients (optimizer.zero_grad(), set_to_none by default)."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="fixed-optimizer-zero-grad",
    description="fix: gradient_as_bucket_view=True with optimizer.zero_grad(); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(
        nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), gradient_as_bucket_view=True
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
