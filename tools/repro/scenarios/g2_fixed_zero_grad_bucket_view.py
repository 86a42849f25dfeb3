"""Fix: the entry's snippet lets the optimizer clear the gradients (optimizer.zero_grad(), set to
None), never grad.detach_() on DDP's bucket views.

The model of g2_grad_bucket_view_detach, trained by the entry's plain-PyTorch optimizer-zero-grad
snippet with gradient_as_bucket_view=True kept, where the broken run's hand-written zero_grad
raised "Can't detach views in-place".  Gradients are compared across ranks after every
optimizer step.
"""

import torch

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.models import MLPLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="fixed-optimizer-zero-grad",
    description="fix (the entry's snippet): gradient_as_bucket_view with optimizer.zero_grad()",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done with gradient_as_bucket_view, gradients equal across ranks",),
    snippet=("optimizer-zero-grad", "pytorch"),
)

STEPS = 3


def main(rank, world_size):
    torch.manual_seed(0)
    model = MLPLoss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    namespace = run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    assert namespace["model"].gradient_as_bucket_view, "DDP was built without bucket views"
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done with gradient_as_bucket_view, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
