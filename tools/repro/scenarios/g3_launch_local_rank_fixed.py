"""DIST-006 fix: accept both spellings of the argument and fall back to LOCAL_RANK.

Each worker runs the entry's own plain-PyTorch snippet: its parser declares ``--local-rank``
and ``--local_rank`` (one destination), defaulting to the LOCAL_RANK environment variable, so
the same script parses what the legacy ``torch.distributed.launch`` passes (started here on
itself when run with plain ``python -m``, the lab's "spawn" launcher, with the broken run's
``--epochs 1``) and runs under torchrun, which passes no argument.  The snippet then creates the
group from the launcher's environment and trains with equal gradients across ranks.
"""

import os
import subprocess
import sys

from tools.repro.harness import (
    FIXED,
    Scenario,
    exit_worker,
    started_by_torchrun,
)
from tools.repro.scenarios.g3_launch_local_rank_arg import legacy_launch_command
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="dist-launch-local-rank-arg",
    variant="fixed-accept-both-spellings",
    description="fix (the entry's snippet): --local-rank/--local_rank, default LOCAL_RANK",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("accept-local-rank-or-use-env", "pytorch"),
)


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    local_rank = names["args"].local_rank
    assert local_rank == int(os.environ["LOCAL_RANK"]), local_rank
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"local_rank={local_rank}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():  # torchrun's workers, or the legacy launcher's (LOCAL_RANK set)
        main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
        exit_worker()
    else:
        command = legacy_launch_command("tools.repro.scenarios.g3_launch_local_rank_fixed")
        sys.exit(subprocess.call([*command, "--epochs", "1"], timeout=60))
