"""DIST-003 fix: pass rank and world size to init_process_group, with the address exported.

Each worker runs the entry's own plain-PyTorch snippet: its ``worker(rank, world_size)`` hands
both to ``init_process_group`` instead of leaving env:// to find a RANK that plain ``python``
never set (the broken run), then trains with equal gradients.  Started with plain ``python -m``
(the lab's "spawn" launcher), this module stands in for the snippet's ``if __name__ ==
"__main__":`` block, which ``mp.spawn`` cannot start from a snippet run by exec (it pickles
``worker`` by name from the script's ``__main__``): it exports MASTER_ADDR and MASTER_PORT
(the lab already has) and spawns the workers.  Under torchrun each worker calls the snippet's
``worker`` with the rank and world size torchrun gives it.
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
    slug="dist-env-rendezvous-missing-var",
    variant="fixed-torchrun-or-explicit-env",
    description="fix (the entry's snippet): rank and world size passed, MASTER_ADDR/PORT set",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("provide-rendezvous-env", "pytorch"),
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
    names["worker"](rank, world_size)
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")
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
    if started_by_torchrun():
        main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(free_port()))
        mp.spawn(main, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
