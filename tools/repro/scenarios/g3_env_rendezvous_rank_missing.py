"""DIST-003: a torchrun-style script started with plain ``python``.

The script calls ``dist.init_process_group("gloo")`` with no arguments and
relies on torchrun to export RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT.
Started with ``python -m ...`` (the lab's "spawn" launcher; nothing is
spawned here) RANK is not set, and the env:// rendezvous raises
"Error initializing torch.distributed using env:// rendezvous: environment
variable RANK expected, but not set".  (The lab exports MASTER_ADDR and
MASTER_PORT, so RANK is the variable found missing; in a bare shell RANK is
also the first one checked.)
"""

import os
from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, Scenario

SCENARIO = Scenario(
    slug="dist-env-rendezvous-missing-var",
    variant="python-instead-of-torchrun",
    description="broken: init_process_group() from env:// when started with plain python",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Error initializing torch.distributed using env:// rendezvous: environment variable "
        "RANK expected, but not set",
    ),
    launchers=("spawn",),
)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=10))
    print(f"rank {os.environ['RANK']}: never reached")


if __name__ == "__main__":
    main()
