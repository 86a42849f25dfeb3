"""Fix: derive the no_sync() window from a step counter that is the same on every rank."""

import contextlib

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    variant="fixed-same-accumulation-window",
    description="fix: one accumulation window for all ranks; completes, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    pg_timeout_s=8.0,
)

ACCUMULATION_STEPS = 2  # a constant, not something computed from this rank's data


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for i in range(6):
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        sync_now = (i + 1) % ACCUMULATION_STEPS == 0
        with contextlib.nullcontext() if sync_now else model.no_sync():
            (nn.functional.mse_loss(model(x), y) / ACCUMULATION_STEPS).backward()
        if sync_now:
            assert grads_match_across_ranks(model), f"micro-batch {i}: gradients differ"
            optimizer.step()
            optimizer.zero_grad()
    if rank == 0:
        print("3 optimizer steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
