"""The fix for reentrant checkpointing under find_unused_parameters=True: the entry's Block.

The network of g1_twice_reentrant_find_unused, still with find_unused_parameters=True, its
checkpointed layer wrapped in the Block that the entry's plain-PyTorch snippet defines
(checkpoint(..., use_reentrant=False)), then trained by the snippet's loop.  The snippet is run
in its two parts as a user would paste them: the class into the model's code, and the loop
after the model is built with it.  Non-reentrant checkpointing keeps the layer's parameters in
the forward's autograd graph, so DDP's unused-parameter search sees them and each becomes ready
once.  Gradients are compared across ranks after every optimizer step.
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
    slug="ddp-mark-variable-ready-twice",
    variant="fixed-non-reentrant-checkpoint-find-unused",
    description="the entry's snippet: Block(use_reentrant=False) + find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("2 steps done, gradients equal across ranks",),
    snippet=("non-reentrant-checkpointing", "pytorch"),
)

STEPS = 2
# Where the snippet's definitions end and its training loop begins.
MODEL_BUILT = "# model: the DDP-wrapped network"


class Net(nn.Module):
    """g1_twice_reentrant_find_unused's network, whose output is the loss the snippet
    backwards; `block` is the checkpointed layer."""

    def __init__(self, block):
        super().__init__()
        self.l0 = nn.Linear(4, 8)
        self.block = block
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.l2(self.block(self.l0(x))).pow(2).mean()


def main(rank, world_size):
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    definitions, marker, loop = code.partition(MODEL_BUILT)
    assert marker, f"the snippet no longer says where the model is built ({MODEL_BUILT!r})"
    defined = run_snippet(definitions)  # the class and the imports the loop uses
    torch.manual_seed(0)
    model = DDP(Net(defined["Block"](nn.Linear(8, 8))), find_unused_parameters=True)
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    run_snippet(
        marker + loop, **defined, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS
    )
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
