"""Fix: the entry's snippet, whose no_sync() window comes from a step counter and a constant
number of accumulation steps, the same on every rank (2 micro-batches per optimizer step here).

Every rank then runs its synchronised backwards at the same micro-batches, so the all-reduces
pair up and the gradients each optimizer step applies are equal across ranks.
"""

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
    slug="ddp-no-sync-misuse",
    variant="fixed-same-accumulation-window",
    description="fix (the entry's snippet): one accumulation window for all ranks; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("3 optimizer steps done, gradients equal across ranks",),
    pg_timeout_s=8.0,
    snippet=("same-window-every-rank", "pytorch"),
)


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self.net(x), y)


def main(rank, world_size):
    torch.manual_seed(0)
    module = Loss()
    steps = check_every_optimizer_step(module)
    torch.manual_seed(rank)
    batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(6)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="2", scheduler="no")
    run_snippet(code, model=DDP(module), dataloader=batches)
    assert len(steps) == 3, f"{len(steps)} optimizer steps"
    if rank == 0:
        print("3 optimizer steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
