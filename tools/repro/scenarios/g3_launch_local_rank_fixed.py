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

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, started_by_torchrun
from tools.repro.scenarios.g3_launch_local_rank_arg import legacy_launch_command
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-launch-local-rank-arg",
    variant="fixed-accept-both-spellings",
    description="fix (the entry's snippet): --local-rank/--local_rank, default LOCAL_RANK",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("accept-local-rank-or-use-env", "pytorch"),
)


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 1)

    def forward(self, batch):
        return self.layer(batch).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = Loss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step, steps = optimizer.step, []

    def checked_step():  # the snippet destroys the group at its end: check while it exists
        assert grads_match_across_ranks(model), "gradients differ across ranks"
        steps.append(step())

    optimizer.step = checked_step
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    local_rank = names["args"].local_rank
    assert local_rank == int(os.environ["LOCAL_RANK"]), local_rank
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"local_rank={local_rank}: 3 steps done, gradients equal across ranks")
    leave()


def leave():
    """End the worker before the interpreter's teardown: the snippet's DDP wrapper holds the
    last reference to the group the snippet destroyed, and freeing it deadlocked now and then on
    torch 2.13.0 (~ProcessGroupGloo, holding the GIL, joins gloo's thread, which waits for the
    GIL to free a finished all_gather's tensors)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    if started_by_torchrun():  # torchrun's workers, or the legacy launcher's (LOCAL_RANK set)
        main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        command = legacy_launch_command("tools.repro.scenarios.g3_launch_local_rank_fixed")
        sys.exit(subprocess.call([*command, "--epochs", "1"], timeout=60))
