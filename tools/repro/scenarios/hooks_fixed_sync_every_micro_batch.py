"""Fix: keep static_graph=True but synchronise every micro-batch (never enter no_sync()).

This is what HF Trainer's accelerator_config={'gradient_accumulation_kwargs':
{'sync_each_batch': True}} / Accelerate's GradientAccumulationPlugin(
sync_each_batch=True) do.  Costs one all-reduce per micro-batch.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-sync-every-micro-batch",
    description="fix: static_graph=True, accumulate without no_sync() (sync every micro-batch)",
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
    for step in range(2):
        for _micro_batch in range(ACCUMULATION_STEPS):
            x, y = torch.randn(8, 4), torch.randn(8, 1)
            (nn.functional.mse_loss(model(x), y) / ACCUMULATION_STEPS).backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("2 accumulation steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
