"""static_graph=True, forward inside no_sync() but backward outside it.

A hand-rolled accumulation loop that only wraps the forward in no_sync().
Whether the backward is inside or outside the context does not matter to DDP:
the reducer is armed (or not) by the FORWARD.  With static_graph=True the
very first backward still finalizes an un-armed reducer -> INTERNAL ASSERT.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="static-graph-no-sync-backward-outside",
    description="static_graph=True, first forward inside no_sync(), its backward outside",
    expect="fail",
    key_text=("RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at", "reducer.cpp"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), static_graph=True)
    torch.manual_seed(rank)

    with model.no_sync():
        loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()  # outside the context, but the forward was not synchronised
    print(f"rank {rank}: backward finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
