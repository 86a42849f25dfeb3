"""DIST-005 fix: let the launcher pick a free port instead of a fixed, busy one.

Run with plain ``python -m`` (the lab's "spawn" launcher), this module holds
MASTER_PORT like another job would, then starts a real
``torchrun --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:0`` (port 0: the
store binds any free port) that runs this same module as its workers; they
train one step and check that gradients are equal across ranks.  Under the
lab's torchrun launcher it is simply the worker.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import (
    FIXED,
    WORLD_SIZE,
    Scenario,
    grads_match_across_ranks,
    launch,
    started_by_torchrun,
)

SCENARIO = Scenario(
    slug="dist-address-in-use",
    variant="fixed-rdzv-endpoint-port-0",
    description="fix: torchrun --rdzv-endpoint 127.0.0.1:0 while the usual port is busy",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch(main, SCENARIO)
    else:
        other_job = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        other_job.bind(("", int(os.environ["MASTER_PORT"])))  # the usual port is taken
        other_job.listen()
        env = {k: v for k, v in os.environ.items() if k not in ("MASTER_ADDR", "MASTER_PORT")}
        torchrun = Path(sys.executable).with_name("torchrun")
        command = [
            str(torchrun) if torchrun.exists() else "torchrun",
            "--nproc-per-node",
            str(WORLD_SIZE),
            "--rdzv-backend",
            "c10d",
            "--rdzv-endpoint",
            "127.0.0.1:0",
            "-m",
            "tools.repro.scenarios.g3_address_in_use_fixed_free_port",
        ]
        sys.exit(subprocess.call(command, env=env, timeout=60))
