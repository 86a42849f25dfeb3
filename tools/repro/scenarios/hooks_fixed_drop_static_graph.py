"""Fix: drop static_graph=True and keep the no_sync() gradient accumulation (the entry's snippet).

The model and data of the broken run (hooks_static_graph_no_sync_first_step: 2 micro-batches
per step, the first under no_sync()), trained by the entry's plain-PyTorch static-graph-off
snippet, which wraps the model in DDP without static_graph.  Without it DDP does not queue
delay_all_reduce on the first backward, so the no_sync() micro-batch simply accumulates locally
and the synchronised one all-reduces the accumulated gradients.
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
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-drop-static-graph",
    description="fix (the entry's snippet): no_sync() accumulation without static_graph=True",
    expect="complete",
    role=FIXED,
    key_text=("2 accumulation steps done, gradients equal across ranks",),
    snippet=("static-graph-off", "pytorch"),
)

ACCUMULATION_STEPS = 2
STEPS = 2


class Regression(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self.net(x), y)


def main(rank, world_size):
    torch.manual_seed(0)
    model = Regression()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(STEPS * ACCUMULATION_STEPS)]
    code = fix_snippet(
        SCENARIO.slug, *SCENARIO.snippet, accumulation_steps=str(ACCUMULATION_STEPS), scheduler="no"
    )
    run_snippet(code, model=model, dataloader=batches)
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} accumulation steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
