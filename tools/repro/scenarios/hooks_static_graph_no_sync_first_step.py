"""static_graph=True + gradient accumulation whose FIRST micro-batch runs under no_sync().

DDP only arms its reducer (expect_autograd_hooks_) in forward when gradients
are to be synchronised, i.e. outside no_sync().  With static_graph=True the
first backward also queues Reducer::delay_all_reduce -> finalize_backward(),
which asserts the reducer is armed.  First micro-batch inside no_sync() ->
the reducer was never armed -> INTERNAL ASSERT on every rank.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="static-graph-no-sync-first-step",
    description="static_graph=True, accumulate 2 micro-batches, the first one inside no_sync()",
    expect="fail",
    key_text=(
        "RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at",
        "reducer.cpp",
        "please report a bug to PyTorch.",
    ),
)

ACCUMULATION_STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    torch.manual_seed(rank)
    for step in range(2):
        for micro_batch in range(ACCUMULATION_STEPS):
            x, y = torch.randn(8, 4), torch.randn(8, 1)
            if micro_batch < ACCUMULATION_STEPS - 1:
                with model.no_sync():  # accumulate locally, no all-reduce
                    loss = nn.functional.mse_loss(model(x), y)
                    loss.backward()  # <- first backward ever: assert fires here
            else:
                loss = nn.functional.mse_loss(model(x), y)
                loss.backward()  # synchronised micro-batch
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
