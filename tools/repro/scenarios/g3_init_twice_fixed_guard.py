"""DIST-002 fix: initialise only when no default group exists yet.

The training code's setup is guarded with ``dist.is_initialized()``, so it
reuses the group ``launch()`` (or a framework) created; training proceeds
and gradients are equal across ranks.
"""

from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="fixed-guard-is-initialized",
    description="fix: init_process_group() only if not dist.is_initialized(); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    if not dist.is_initialized():
        dist.init_process_group(
            "gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=30)
        )
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
