"""Fix (the entry's snippet): sum the losses of one forward into ONE backward, static_graph kept.

The historic form of the assert (torch 2.0, pytorch#106953) came from
loss1.backward(retain_graph=True); loss2.backward() on a static_graph model.  The entry's
plain-PyTorch single-backward snippet trains the same two-headed static_graph model with one
backward per forward, which restores the reducer's one-backward contract.
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
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-sum-losses",
    description="fix (the entry's snippet): static_graph=True, two heads, one summed backward",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done, gradients equal across ranks",),
    snippet=("single-backward", "pytorch"),
)

STEPS = 3


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.head_a(h), self.head_b(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads(), static_graph=True)
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
