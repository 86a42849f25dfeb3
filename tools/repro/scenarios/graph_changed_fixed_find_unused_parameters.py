"""Fix: a graph that changes between iterations needs find_unused_parameters=True.

The model of graph_changed_param_unused_first_iteration (an aux head unused in iteration 1 and
used from iteration 2 on), trained by the entry's plain-PyTorch static-graph-off snippet, which
wraps it in DDP without static_graph and with find_unused_parameters=True.  Gradients are
compared across ranks after every optimizer step.
"""

import torch
import torch.nn as nn

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.scenarios.graph_changed_param_unused_first_iteration import Net
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="fixed-find-unused-parameters",
    description="the entry's snippet: aux head used from iteration 2, find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done, gradients equal across ranks",),
    snippet=("static-graph-off", "pytorch"),
)

STEPS = 3


class AuxLaterLoss(nn.Module):
    """The snippet's `model(batch)` is the loss; the aux head joins from the second iteration,
    as from step 1 of the broken run."""

    def __init__(self):
        super().__init__()
        self.net = Net()
        self.iterations = 0

    def forward(self, batch):
        self.iterations += 1
        return self.net(batch, use_aux=self.iterations >= 2).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = AuxLaterLoss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
