"""gradient_as_bucket_view=True and a hand-written zero_grad that calls grad.detach_().

With gradient_as_bucket_view the .grad tensors are views into DDP's buckets,
and a view cannot be detached in place.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="detach-grad-in-place",
    description="gradient_as_bucket_view=True, p.grad.detach_() in a custom zero_grad; raises",
    expect="fail",
    key_text=("Can't detach views in-place. Use detach() instead.",),
)


def zero_grad(model):
    # An old-style zero_grad, as copied from pre-1.7 optimizers or older training loops.
    for p in model.parameters():
        if p.grad is not None:
            p.grad.detach_()
            p.grad.zero_()


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(
        nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), gradient_as_bucket_view=True
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        zero_grad(model)


if __name__ == "__main__":
    launch(main, SCENARIO)
