"""Fix: wrap only the module that trains; the frozen teacher stays a plain module."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="fixed-teacher-not-wrapped",
    description="fix: DDP() around the student only; distillation step, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    student = DDP(nn.Linear(4, 2))
    teacher = nn.Linear(4, 2).requires_grad_(False).eval()  # no DDP: nothing to synchronise
    torch.manual_seed(rank)
    x = torch.randn(8, 4)
    with torch.no_grad():
        target = teacher(x)
    F.mse_loss(student(x), target).backward()
    assert grads_match_across_ranks(student), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
