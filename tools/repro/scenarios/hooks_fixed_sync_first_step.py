"""Fix (workaround from pytorch#143580): one synchronised step before the first no_sync().

static_graph=True stays on.  The first iteration (where static_graph records
the graph and queues delay_all_reduce) runs synchronised, so the reducer is
armed; later no_sync() micro-batches are fine.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-sync-first-step",
    description="fix: static_graph=True, one synchronised step before any no_sync(); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)

ACCUMULATION_STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)

    # Warm-up: one normal, synchronised forward/backward first.
    nn.functional.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 1)).backward()
    assert grads_match_across_ranks(model), "warm-up: gradients differ across ranks"
    optimizer.step()
    optimizer.zero_grad()

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
        print("warm-up + 2 accumulation steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
