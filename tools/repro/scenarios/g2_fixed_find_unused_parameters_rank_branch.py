"""Fix: find_unused_parameters=True when a branch is used on some ranks only (the entry's snippet).

The model of g2_rank_dependent_unused (a layer rank 0 uses and rank 1 skips), trained by the
entry's plain-PyTorch find-unused-parameters snippet.  Each rank marks the parameters its own
graph did not reach as ready (with a zero gradient), so every bucket is all-reduced on every
rank.  Gradients are compared across ranks after every optimizer step.
"""

import torch
import torch.nn as nn

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.scenarios.g2_rank_dependent_unused import Net
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    variant="fixed-find-unused-parameters",
    description="the entry's snippet: layer used on rank 0 only, find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done, gradients equal across ranks",),
    pg_timeout_s=8.0,
    snippet=("find-unused-parameters", "pytorch"),
)

STEPS = 3


class BranchLoss(nn.Module):
    """The snippet's `model(batch)` is the loss; whether `extra` runs depends on the rank, as
    with a data-dependent branch."""

    def __init__(self, use_extra):
        super().__init__()
        self.net = Net()
        self.use_extra = use_extra

    def forward(self, batch):
        return self.net(batch, self.use_extra).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = BranchLoss(use_extra=rank == 0)
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
