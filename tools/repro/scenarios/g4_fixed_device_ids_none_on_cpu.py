"""Fix: device_ids only for a module on one GPU; None (the default) on CPU."""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="fixed-device-ids-only-on-gpu",
    description="fix: device_ids=[local_rank] only when the module is on that GPU; trains on CPU",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    local_rank = rank
    model = nn.Linear(4, 2)
    if torch.cuda.is_available():
        model = DDP(model.to(local_rank), device_ids=[local_rank])
    else:
        model = DDP(model)  # CPU (or a module spread over several GPUs): no device_ids
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
