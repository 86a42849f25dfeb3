"""DIST-001: DDP(model) before init_process_group() -- no default process group.

Each worker wraps its model in DistributedDataParallel before any process
group exists (the script forgot, or calls it too late).  DDP asks for the
default group and torch raises "Default process group has not been
initialized, please make sure to call init_process_group.".  The module does
its own launcher plumbing instead of ``launch()``, which would initialise the
group first.
"""

import os

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario, started_by_torchrun

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="ddp-before-init-process-group",
    description="broken: DDP(model) in each worker before init_process_group()",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Default process group has not been initialized, please make sure to call "
        "init_process_group.",
    ),
)


def worker(rank, world_size):
    model = nn.Linear(4, 1)
    DDP(model)  # no dist.init_process_group() before this line
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    if started_by_torchrun():
        worker(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        import torch.multiprocessing as mp

        mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
