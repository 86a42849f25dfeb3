"""DIST-007: init_process_group("nccl") on a machine without a GPU.

The training script hard-codes the NCCL backend.  The lab's torch is the
2.13.0 CPU build, which has no NCCL at all, so init_process_group raises
"RuntimeError: Distributed package doesn't have NCCL built in".  (A CUDA build
on a machine without a GPU raises "ProcessGroupNCCL is only supported with
GPUs, no GPUs found!" instead; that needs a CUDA wheel and is not reproduced
here.)  The module does its own launcher plumbing, since ``launch()``
initialises gloo.
"""

import os
from datetime import timedelta

import torch
import torch.distributed as dist

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario, started_by_torchrun

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="nccl-backend-with-cpu-build",
    description="broken: init_process_group('nccl') with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: Distributed package doesn't have NCCL built in",),
    pg_timeout_s=10.0,
)


def worker(rank, world_size):
    dist.init_process_group("nccl", rank=rank, world_size=world_size, timeout=timedelta(seconds=10))
    t = torch.ones(1)
    dist.all_reduce(t)
    print(f"rank {rank}: never reached ({t.item()})")


if __name__ == "__main__":
    if started_by_torchrun():
        worker(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        import torch.multiprocessing as mp

        mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
