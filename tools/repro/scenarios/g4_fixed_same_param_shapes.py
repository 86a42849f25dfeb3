"""Fix for the shape mismatch: the entry's snippet reads the config on rank 0 and broadcasts it,
so every rank builds the same shapes.

Each rank's own config still gives a different hidden size, as in g4_param_shape_mismatch (4 on
rank 0, 5 on rank 1), where DDP() raised; the entry's plain-PyTorch same-model-on-every-rank
snippet builds the model from rank 0's config everywhere.  This machine has no GPU, so the
snippet wraps without device_ids.  Gradients are compared across ranks after every step.
"""

import torch
import torch.nn as nn
from torch.optim.optimizer import register_optimizer_step_post_hook

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="fixed-same-config-on-every-rank",
    description="fix (the entry's snippet): rank 0's config broadcast; DDP() accepts the model",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done with hidden size 4 on every rank, gradients equal across ranks",),
    snippet=("same-model-on-every-rank", "pytorch"),
)

STEPS = 2


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, batch):
        return self.net(batch).mean()


def main(rank, world_size):
    built, steps = [], []

    def load_config():  # e.g. a config file or tokenizer that differs per node
        return {"hidden": 4 if rank == 0 else 5}

    def build_model(hidden):
        built.append(Loss(hidden))
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
        load_config=load_config,
        build_model=build_model,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        local_rank=rank,
    )
    hidden = built[0].net[0].out_features
    assert hidden == 4, f"rank {rank} built hidden size {hidden}"
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done with hidden size 4 on every rank, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
