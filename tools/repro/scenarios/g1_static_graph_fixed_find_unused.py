"""The fix for a graph that changes after iteration 1, as the entry's snippet writes it.

The model of g1_static_graph_param_dropped (an aux head used in iteration 1 only), trained by
the entry's plain-PyTorch static-graph-off snippet, which wraps it in DDP without static_graph
and with find_unused_parameters=True.  DDP then searches each iteration's graph for the
parameters that will get no gradient, so the aux head can stop being used.  Gradients are
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
from tools.repro.scenarios.g1_static_graph_param_dropped import Net
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="fixed-find-unused-parameters-instead-of-static-graph",
    description="the entry's snippet: aux head in iteration 1 only, find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("4 steps done, gradients equal across ranks",),
    snippet=("static-graph-off", "pytorch"),
)

STEPS = 4


class WarmupLoss(nn.Module):
    """The snippet's `model(batch)` is the loss; the aux head only takes part in the first
    iteration, as at step 0 of the broken run."""

    def __init__(self):
        super().__init__()
        self.net = Net()
        self.iterations = 0

    def forward(self, batch):
        self.iterations += 1
        return self.net(batch, use_aux=self.iterations == 1).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = WarmupLoss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
