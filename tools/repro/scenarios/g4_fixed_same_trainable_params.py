"""Fix for the count mismatch: the entry's snippet freezes the encoder the same way on every rank
before wrapping.

The model of g4_param_count_mismatch, whose build_model still freezes the encoder on rank 1 only
(a freeze flag read from a per-node environment variable), where DDP() raised; the entry's
plain-PyTorch same-trainable-params snippet freezes it on every rank, so both register the
head's parameters alone.  This machine has no GPU, so the snippet wraps without device_ids.
Gradients are compared across ranks after every step.
"""

import torch
import torch.nn as nn
from torch.optim.optimizer import register_optimizer_step_post_hook

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="fixed-same-frozen-layers-on-every-rank",
    description="fix (the entry's snippet): every rank freezes the encoder before DDP(); trains",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, encoder frozen on every rank, gradients equal across ranks",),
    snippet=("same-trainable-params", "pytorch"),
)

STEPS = 2


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.head = nn.Linear(8, 1)

    def forward(self, batch):
        return self.head(self.encoder(batch)).mean()


def main(rank, world_size):
    built, steps = [], []

    def build_model():
        built.append(Loss())
        if rank == 1:
            built[-1].encoder.requires_grad_(False)
        return built[-1]

    def check_step(optimizer, args, kwargs):  # the snippet builds its own optimizer
        # DDP wraps these same parameters: their gradients are the synced ones.
        assert grads_match_across_ranks(built[0]), f"step {len(steps)}: gradients differ"
        steps.append(optimizer)

    register_optimizer_step_post_hook(check_step)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(
        code,
        build_model=build_model,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        local_rank=rank,
    )
    trainable = [name for name, p in built[0].named_parameters() if p.requires_grad]
    assert trainable == ["head.weight", "head.bias"], trainable
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, encoder frozen on every rank, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
