"""DIST-007 fix: choose the backend from the hardware (gloo without a GPU).

``backend = "nccl" if torch.cuda.is_available() else "gloo"`` picks gloo on
this CPU-only machine; training proceeds with equal gradients.
"""

import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import (
    FIXED,
    WORLD_SIZE,
    Scenario,
    grads_match_across_ranks,
    started_by_torchrun,
)

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="fixed-backend-for-device",
    description="fix: nccl only when CUDA is available, gloo otherwise; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("backend gloo", "gradients equal across ranks"),
)


def worker(rank, world_size):
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(
        backend, rank=rank, world_size=world_size, timeout=timedelta(seconds=30)
    )
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print(f"backend {backend}: 1 step done, gradients equal across ranks")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    if started_by_torchrun():
        worker(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        import torch.multiprocessing as mp

        mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
