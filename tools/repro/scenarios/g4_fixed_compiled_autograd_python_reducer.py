"""Fix: optimize_ddp="python_reducer" set before wrapping, so compiled autograd traces the
gradient all-reduces instead of meeting the C++ reducer's hooks."""

import torch
import torch._dynamo
import torch.nn as nn
from torch._dynamo import compiled_autograd
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="fixed-python-reducer",
    description="fix: optimize_ddp='python_reducer' before DDP(); compiled backward, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch._dynamo.config.optimize_ddp = "python_reducer"  # before DDP() is constructed
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    compiled = torch.compile(model, backend="aot_eager")
    torch.manual_seed(rank)
    loss = compiled(torch.randn(8, 4)).pow(2).mean()
    with compiled_autograd._enable(torch.compile(backend="aot_eager")):
        loss.backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 compiled step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
