"""Fix: the entry's snippet runs one dummy forward (the real feature size on every rank) before
wrapping, which materialises the lazy parameters.

The nn.LazyLinear model of g4_lazy_params, trained by the entry's plain-PyTorch
dummy-forward-before-wrapping snippet, where the broken run's DDP() of the unmaterialised model
raised.  This machine has no GPU, so the snippet wraps without device_ids.  The snippet builds
its optimizer after the dummy forward; gradients are compared across ranks after every step.
"""

import torch
import torch.nn as nn

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="fixed-dummy-forward-before-wrapping",
    description="fix (the entry's snippet): a dummy forward before DDP(); trains, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, lazy parameters materialised, gradients equal across ranks",),
    snippet=("dummy-forward-before-wrapping", "pytorch"),
)

STEPS = 2


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, batch):
        return self.net(batch).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = Loss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(
        code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS, local_rank=rank
    )
    assert model.net[0].weight.shape == (8, 4), model.net[0].weight.shape
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, lazy parameters materialised, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
