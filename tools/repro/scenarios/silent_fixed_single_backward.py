"""Fix: one backward per forward, and accumulation with the forward INSIDE no_sync().

Both halves run the entry's plain-PyTorch snippets on the broken runs' model: single-backward
(the fix this scenario declares) sums the terms of one forward into one backward, where
silent_second_backward_retain_graph backwarded twice; align-no-sync then accumulates 2
micro-batches per step with each forward and its backward inside the same context, where
silent_no_sync_forward_inside_backward_outside split them.  Gradients are compared across
ranks after every optimizer step of either loop.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim.optimizer import register_optimizer_step_post_hook

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="fixed-single-backward",
    description="fix (the entry's snippets): one backward per forward; no_sync() forward+backward",
    expect="complete",
    role=FIXED,
    key_text=("single backward and accumulation: gradients equal across ranks",),
    snippet=("single-backward", "pytorch"),
)

ACCUMULATION_STEPS = 2
STEPS = 2


def network():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


class SquaredOutput(nn.Module):
    """align-no-sync's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.net = network()

    def forward(self, x):
        return self.net(x).pow(2).mean()


def main(rank, world_size):
    steps = []

    def check_step(optimizer, args, kwargs):  # single-backward builds its own optimizer
        assert grads_match_across_ranks(checked), f"step {len(steps)}: gradients differ"
        steps.append(optimizer)

    register_optimizer_step_post_hook(check_step)

    torch.manual_seed(0)
    checked = DDP(network())
    torch.manual_seed(rank)
    run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no"),
        model=checked,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        main_loss_fn=lambda out: out.pow(2).mean(),
        aux_loss_fn=lambda out: out.abs().mean(),
    )
    assert len(steps) == STEPS, steps

    torch.manual_seed(0)
    checked = DDP(SquaredOutput())
    torch.manual_seed(rank)
    run_snippet(
        fix_snippet(SCENARIO.slug, "align-no-sync", accumulation_steps=str(ACCUMULATION_STEPS)),
        model=checked,
        dataloader=[torch.randn(8, 4) for _ in range(STEPS * ACCUMULATION_STEPS)],
        optimizer=torch.optim.SGD(checked.parameters(), lr=0.1),
    )
    assert len(steps) == 2 * STEPS, steps
    if rank == 0:
        print("single backward and accumulation: gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
