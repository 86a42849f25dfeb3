"""DIST-001 fix: init_process_group() first, then DDP(model); gradients equal.

``launch()`` initialises the gloo process group (rank and world size from
torchrun's environment, or from torch.multiprocessing.spawn) before ``main``
wraps the model, which is the order the fix asks for.
"""

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="fixed-init-before-ddp",
    description="fix: init_process_group() before DDP(model); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    assert dist.is_initialized()
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
