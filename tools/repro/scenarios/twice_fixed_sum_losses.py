"""Fix: two heads on one trunk, losses summed into a single backward (the entry's snippet).

The model of twice_two_losses_shared_trunk on default DDP, trained by the entry's plain-PyTorch
single-backward snippet with the broken run's two losses: one backward reports every shared
parameter once.  Gradients are compared across ranks after every optimizer step.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.scenarios.twice_two_losses_shared_trunk import TwoHeads
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="fixed-sum-losses",
    description="the entry's snippet: loss_fn_a(out_a) + loss_fn_b(out_b) in one backward",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, gradients equal across ranks",),
    snippet=("single-backward", "pytorch"),
)

STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads())
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(
        code,
        model=model,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        loss_fn_a=lambda out: out.pow(2).mean(),
        loss_fn_b=lambda out: out.abs().mean(),
    )
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
