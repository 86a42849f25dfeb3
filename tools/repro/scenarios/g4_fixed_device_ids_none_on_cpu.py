"""Fix: the entry's snippet, device_ids only for a module on one GPU; None (the default) on CPU.

This machine has no GPU, so the snippet takes its CPU branch: DDP(model) without device_ids,
where the broken run's DDP(model, device_ids=[local_rank]) raised ValueError in the constructor.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="fixed-device-ids-only-on-gpu",
    description="fix (the entry's snippet): device_ids only for a module on a GPU; CPU trains",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, gradients equal across ranks",),
    snippet=("device-ids-for-one-gpu-only", "pytorch"),
)


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 2)

    def forward(self, batch):
        return self.layer(batch).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = Loss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(
        code,
        model=model,
        optimizer=optimizer,
        batch=torch.randn(8, 4),
        num_training_steps=2,
        local_rank=rank,
    )
    assert len(steps) == 2, f"{len(steps)} optimizer steps"
    if rank == 0:
        print("2 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
