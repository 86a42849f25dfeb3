"""DIST-007 fix: choose the backend from the hardware (gloo without a GPU).

Each worker runs the entry's own plain-PyTorch snippet, which asks for nccl only when CUDA and
NCCL are there (the broken run hard-coded nccl on this CPU build) and so initialises gloo here,
then trains with equal gradients.  The module does its own launcher plumbing, since ``launch()``
would create a gloo group before the snippet could choose: under torchrun the workers run the
snippet as they are; started with plain ``python -m``, the spawned workers export RANK,
WORLD_SIZE and LOCAL_RANK the way torchrun does.
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
    slug="nccl-no-gpu",
    variant="fixed-backend-for-device",
    description="fix (the entry's snippet): nccl only with CUDA and NCCL, else gloo; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("backend gloo", "gradients equal across ranks"),
    snippet=("backend-for-device", "pytorch"),
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
        print(f"backend {names['backend']}: 3 steps done, gradients equal across ranks")
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
