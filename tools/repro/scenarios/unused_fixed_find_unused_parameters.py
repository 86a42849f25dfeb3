"""Fix: DDP(find_unused_parameters=True) for a model with a parameter that gets no gradient.

The model of unused_param_no_find_unused (a layer no forward uses), trained by the entry's
plain-PyTorch find-unused-parameters snippet, which wraps it in DDP with
find_unused_parameters=True.  Gradients are compared across ranks after every optimizer step.
(Deleting the layer or freezing it, the entry's other fix, avoids the extra graph traversal
find_unused_parameters costs every iteration.)
"""

import torch
import torch.nn as nn

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.scenarios.unused_param_no_find_unused import Net
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="fixed-find-unused-parameters",
    description="the entry's snippet: same unused layer, DDP(find_unused_parameters=True)",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done, gradients equal across ranks",),
    snippet=("find-unused-parameters", "pytorch"),
)

STEPS = 3


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = Net()

    def forward(self, batch):
        return self.net(batch).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = Loss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
