"""DIST-003 fix: give the env:// rendezvous what it reads, or launch with torchrun.

Under torchrun, ``init_process_group("gloo")`` with no arguments finds RANK,
WORLD_SIZE, MASTER_ADDR and MASTER_PORT in the environment.  Started with
plain ``python``, the script sets the address and port itself and passes
rank and world size explicitly to each spawned worker.
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
    free_port,
    grads_match_across_ranks,
    started_by_torchrun,
)

SCENARIO = Scenario(
    slug="dist-env-rendezvous-missing-var",
    variant="fixed-torchrun-or-explicit-env",
    description="fix: torchrun exports the variables; spawn sets them and passes rank",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def train(rank):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")
    dist.barrier()
    dist.destroy_process_group()


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=30))
    train(rank)


if __name__ == "__main__":
    if started_by_torchrun():
        dist.init_process_group("gloo", timeout=timedelta(seconds=30))  # all from env://
        train(dist.get_rank())
    else:
        import torch.multiprocessing as mp

        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(free_port()))
        mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
