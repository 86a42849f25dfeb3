"""Fix: the entry's snippet, a gradient penalty from torch.autograd.grad on the module DDP wraps
and one backward through DDP.

torch.autograd.grad(create_graph=True) on `model.module` builds the
higher-order term without touching `.grad` or DDP's reducer; adding it to the
loss leaves one ordinary backward through DDP, whose first-order gradients
(including the penalty's) are all-reduced as usual.  Python warnings are
errors in this run: the broken way, backward(create_graph=True), emits
autograd's reference-cycle UserWarning next to DDP's reducer warning.
"""

import warnings

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="fixed-penalty-with-autograd-grad",
    description="fix (the entry's snippet): penalty from autograd.grad, one backward; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, no warning, gradients equal across ranks",),
    snippet=("penalty-outside-ddp", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_snippet(
            code,
            model=model,
            batch=torch.randn(8, 4),
            loss_fn=lambda output: output.pow(2).mean(),
            num_training_steps=2,
        )
    assert len(steps) == 2, f"{len(steps)} optimizer steps"
    if rank == 0:
        print("2 steps done, no warning, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
