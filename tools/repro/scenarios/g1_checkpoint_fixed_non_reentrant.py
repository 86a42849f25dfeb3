"""The fix for a checkpointed block behind a frozen input: use_reentrant=False.

Non-reentrant checkpointing records the block's backward whether or not its input
requires grad, so the block trains; default DDP, gradients compared across ranks.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.scenarios.g1_checkpoint_input_no_grad import Net

SCENARIO = Scenario(
    slug="checkpoint-inputs-no-grad",
    variant="fixed-non-reentrant-checkpoint",
    description="frozen embedding -> checkpoint(block, use_reentrant=False); block trains",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 1 done, block has gradients, gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        optimizer.zero_grad()
        model(torch.randn(8, 4), use_reentrant=False).pow(2).mean().backward()
        has_grad = model.module.block.weight.grad is not None
        same = grads_match_across_ranks(model)
        optimizer.step()
        print(
            f"rank {rank}: step {step} done, block {'has' if has_grad else 'has no'} gradients, "
            f"gradients {'equal' if same else 'differ'} across ranks"
        )
        if not (has_grad and same):
            raise SystemExit(1)


if __name__ == "__main__":
    launch(main, SCENARIO)
