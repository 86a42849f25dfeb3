"""DIST-003: rank and world size passed by hand, MASTER_ADDR never exported.

A hand-rolled ``torch.multiprocessing.spawn`` launcher passes ``rank`` and
``world_size`` to ``init_process_group`` but relies on env:// for the
address, which nobody set.  The lab exports MASTER_ADDR for every run, so the
script removes it first to stand for a shell where it was never exported.
"""

import os
from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario

SCENARIO = Scenario(
    slug="dist-env-rendezvous-missing-var",
    variant="spawn-without-master-addr",
    description="broken: spawn workers init from env:// with MASTER_ADDR unset",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Error initializing torch.distributed using env:// rendezvous: environment variable "
        "MASTER_ADDR expected, but not set",
    ),
    launchers=("spawn",),
)


def worker(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=10))
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    import torch.multiprocessing as mp

    os.environ.pop("MASTER_ADDR", None)  # a shell where nobody exported it
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
