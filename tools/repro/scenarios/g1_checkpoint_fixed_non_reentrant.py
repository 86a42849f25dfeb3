"""The fix for a checkpointed block behind a frozen input: the entry's use_reentrant=False.

The network of g1_checkpoint_input_no_grad (frozen embedding, block, head), its block wrapped in
the Block that the entry's plain-PyTorch snippet defines, then trained by the snippet's loop.
The snippet is run in its two parts as a user would paste them: the class into the model's
code, and the loop after the model is built with it.  Non-reentrant checkpointing records the
block's backward whether or not its input requires grad, so the block trains; default DDP,
gradients compared across ranks after each optimizer step.
"""

import warnings

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim.optimizer import register_optimizer_step_post_hook

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-inputs-no-grad",
    variant="fixed-non-reentrant-checkpoint",
    description="the entry's snippet: frozen embedding -> Block(use_reentrant=False); block trains",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 1 done, block has gradients, gradients equal across ranks",),
    snippet=("non-reentrant-checkpointing", "pytorch"),
)

# Where the snippet's definitions end and its training loop begins.
MODEL_BUILT = "# model: the DDP-wrapped network"


class Net(nn.Module):
    """g1_checkpoint_input_no_grad's network, whose output is the loss the snippet backwards."""

    def __init__(self, block):
        super().__init__()
        self.embed = nn.Linear(4, 8)
        self.embed.requires_grad_(False)  # frozen, as with a frozen embedding or LoRA base
        self.block = block
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(self.block(self.embed(x))).pow(2).mean()


def main(rank, world_size):
    definitions, marker, loop = fix_snippet(
        SCENARIO.slug, *SCENARIO.snippet, scheduler="no"
    ).partition(MODEL_BUILT)
    assert marker, f"the snippet no longer says where the model is built ({MODEL_BUILT!r})"
    defined = run_snippet(definitions)
    torch.manual_seed(0)
    net = Net(defined["Block"](nn.Linear(8, 8)))
    model = DDP(net)
    steps = []

    def check_step(optimizer, args, kwargs):  # the snippet builds its own optimizer
        has_grad = net.block.layer.weight.grad is not None
        same = grads_match_across_ranks(model)
        print(
            f"rank {rank}: step {len(steps)} done, block {'has' if has_grad else 'has no'} "
            f"gradients, gradients {'equal' if same else 'differ'} across ranks"
        )
        if not (has_grad and same):
            raise SystemExit(1)
        steps.append(optimizer)

    register_optimizer_step_post_hook(check_step)
    # The broken run's warning, that the checkpoint recorded no backward for the block.
    warnings.filterwarnings("error", message="None of the inputs have requires_grad=True")
    torch.manual_seed(rank)
    # The loop goes on in the namespace of the definitions, whose imports it uses.
    run_snippet(
        marker + loop, **defined, model=model, batch=torch.randn(8, 4), num_training_steps=2
    )
    assert len(steps) == 2, steps


if __name__ == "__main__":
    launch(main, SCENARIO)
