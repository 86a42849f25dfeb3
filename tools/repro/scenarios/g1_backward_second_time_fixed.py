"""The fix for a second backward over a freed graph: sum the losses into one backward.

Same model as g1_backward_second_time, trained by the entry's plain-PyTorch single-backward
snippet.  One backward needs the saved tensors only once and lets DDP all-reduce every gradient;
gradients are compared across ranks before each optimizer step.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.optim.optimizer import register_optimizer_step_post_hook

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.scenarios.g1_backward_second_time import TwoHeads
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="fixed-sum-losses-one-backward",
    description="the entry's snippet: loss_a + loss_b in one backward over the shared trunk",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 1 done, gradients equal across ranks",),
    snippet=("single-backward", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads())
    steps = []

    def check_step(optimizer, args, kwargs):  # the snippet builds its own optimizer
        same = grads_match_across_ranks(model)
        print(
            f"rank {rank}: step {len(steps)} done, "
            f"gradients {'equal' if same else 'differ'} across ranks"
        )
        if not same:
            raise SystemExit(1)
        steps.append(optimizer)

    register_optimizer_step_post_hook(check_step)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    run_snippet(
        code,
        model=model,
        batch=torch.randn(8, 4),
        num_training_steps=2,
        loss_fn_a=lambda out: out.pow(2).mean(),
        loss_fn_b=lambda out: out.pow(2).mean(),
    )
    assert len(steps) == 2, steps


if __name__ == "__main__":
    launch(main, SCENARIO)
