"""The fix for reentrant checkpointing under find_unused_parameters=True: use_reentrant=False.

Same model as g1_twice_reentrant_find_unused, still with find_unused_parameters=True.
Non-reentrant checkpointing keeps the layer's parameters in the forward's autograd
graph, so DDP's unused-parameter search sees them and each becomes ready once.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="fixed-non-reentrant-checkpoint-find-unused",
    description="checkpoint(use_reentrant=False) + find_unused_parameters=True; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 1 done, gradients equal across ranks",),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = nn.Linear(4, 8)
        self.l1 = nn.Linear(8, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.l0(x)
        h = checkpoint(self.l1, h, use_reentrant=False)
        return self.l2(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).pow(2).mean().backward()
        same = grads_match_across_ranks(model)
        optimizer.step()
        state = "equal" if same else "differ"
        print(f"rank {rank}: step {step} done, gradients {state} across ranks")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    launch(main, SCENARIO)
