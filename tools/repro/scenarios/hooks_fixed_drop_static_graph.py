"""Fix: drop static_graph=True and keep the no_sync() gradient accumulation.

Without static_graph, DDP does not queue delay_all_reduce on the first
backward, so a no_sync() first micro-batch simply accumulates locally and the
synchronised micro-batch all-reduces the accumulated gradients.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-drop-static-graph",
    description="fix: no_sync() accumulation without static_graph=True; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)

ACCUMULATION_STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))  # no static_graph
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    torch.manual_seed(rank)
    for step in range(2):
        for micro_batch in range(ACCUMULATION_STEPS):
            x, y = torch.randn(8, 4), torch.randn(8, 1)
            if micro_batch < ACCUMULATION_STEPS - 1:
                with model.no_sync():
                    nn.functional.mse_loss(model(x), y).backward()
            else:
                nn.functional.mse_loss(model(x), y).backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("2 accumulation steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
