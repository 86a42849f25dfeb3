"""Negative (found by accident): TORCH_DISTRIBUTED_DEBUG=DETAIL crashes DDP construction.

Meant as the DETAIL variant of the unused-parameter failure.  On torch
2.13.0+cpu (this lab machine, gloo) every rank dies with SIGSEGV inside
DistributedDataParallel.__init__ -> _ddp_init_helper ->
logger.set_construction_data_and_log(), before any training step; with
TORCH_DISTRIBUTED_DEBUG=INFO the same script reaches the expected error.
The output is a launcher-level crash report, not a knowledge-base symptom.
By hand: TORCH_DISTRIBUTED_DEBUG=DETAIL python -m tools.repro.scenarios.neg_debug_detail_segfault
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import NEGATIVE, NEGATIVE_SLUG, Scenario, launch

SCENARIO = Scenario(
    slug=NEGATIVE_SLUG,
    variant="debug-detail-segfault-in-ddp-init",
    description="negative: TORCH_DISTRIBUTED_DEBUG=DETAIL, DDP(...) segfaults (2.13.0+cpu)",
    expect="fail",
    role=NEGATIVE,
    key_text=("SIGSEGV",),
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.unused = nn.Linear(8, 8)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())  # <- SIGSEGV here with TORCH_DISTRIBUTED_DEBUG=DETAIL
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
