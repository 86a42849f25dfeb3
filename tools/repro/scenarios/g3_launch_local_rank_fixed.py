"""DIST-006 fix: accept both spellings of the argument and fall back to LOCAL_RANK.

The worker's parser declares ``--local-rank`` and ``--local_rank`` (one
destination), defaulting to the LOCAL_RANK environment variable, so the same
script runs under the legacy ``torch.distributed.launch`` (started here on
itself when run with plain ``python -m``, the lab's "spawn" launcher) and
under torchrun, which passes no argument.  Each worker trains one step and
checks that gradients are equal across ranks.
"""

import argparse
import os
import subprocess
import sys

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import (
    FIXED,
    Scenario,
    grads_match_across_ranks,
    launch,
    started_by_torchrun,
)
from tools.repro.scenarios.g3_launch_local_rank_arg import legacy_launch_command

SCENARIO = Scenario(
    slug="dist-launch-local-rank-arg",
    variant="fixed-accept-both-spellings",
    description="fix: argparse accepts --local-rank/--local_rank, default LOCAL_RANK; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def parse_args():
    parser = argparse.ArgumentParser(prog="train.py")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument(
        "--local-rank",
        "--local_rank",
        dest="local_rank",
        type=int,
        default=int(os.environ.get("LOCAL_RANK", 0)),
    )
    return parser.parse_args()


def main(rank, world_size):
    args = parse_args()
    assert args.local_rank == int(os.environ["LOCAL_RANK"])
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 1))
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print(f"local_rank={args.local_rank}: 1 step done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch(main, SCENARIO)
    else:
        command = legacy_launch_command("tools.repro.scenarios.g3_launch_local_rank_fixed")
        sys.exit(subprocess.call([*command, "--epochs", "1"], timeout=60))
