"""DIST-004 fix: start exactly world_size processes, all pointing at rank 0.

Each worker runs the entry's own plain-PyTorch snippet, which takes its rank and the world size
from the launcher's RANK and WORLD_SIZE instead of hard-coding them (the broken run said 2 for a
single process, and rank 0's store timed out waiting), so every rank joins the store and trains
with equal gradients.  The module does its own launcher plumbing, since ``launch()`` would
create the group before the snippet could: under torchrun the workers run the snippet as they
are; started with plain ``python -m``, each spawned worker exports its rank and the number of
processes started (nprocs) the way torchrun does.
"""

import os
import sys

import torch
import torch.multiprocessing as mp
import torch.nn as nn

from tools.repro.harness import (
    FIXED,
    WORLD_SIZE,
    Scenario,
    free_port,
    grads_match_across_ranks,
    started_by_torchrun,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-store-timeout",
    variant="fixed-world-size-matches-processes",
    description="fix (the entry's snippet): world size from WORLD_SIZE, the processes started",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("match-world-and-endpoint", "pytorch"),
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
    assert names["model"].module is model  # DDP wraps these parameters: theirs are synced
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"world of {world_size}: 3 steps done, gradients equal across ranks")
    leave()


def leave():
    """End the worker as launch() does, before the interpreter's teardown: the snippet's DDP
    wrapper holds the last reference to the group the snippet destroyed, and freeing it
    deadlocked now and then on torch 2.13.0 (~ProcessGroupGloo, holding the GIL, joins gloo's
    thread, which waits for the GIL to free a finished all_gather's tensors)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def spawned(rank, world_size):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world_size))
    main(rank, world_size)


if __name__ == "__main__":
    if started_by_torchrun():
        main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(free_port()))
        mp.spawn(spawned, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
