"""Reentrant checkpointing with find_unused_parameters=True (each layer checkpointed once).

With find_unused_parameters=True DDP searches the autograd graph of the forward's
output for parameters it can reach.  A reentrant checkpoint hides the layer's
parameters from that search (the layer is re-run inside the checkpoint's own
backward), so DDP marks them ready as "unused" right away; then their hooks fire
in the reentrant backward and the same parameters become ready a second time.
On torch 2.13.0 the message does not list the third reason ("Incorrect unused
parameter detection") that the reducer source adds for find_unused_parameters.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="reentrant-checkpoint-find-unused",
    description="checkpoint(use_reentrant=True), find_unused_parameters=True; 1st backward raises",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to mark a variable ready only once.",
        "has been marked as ready twice",
    ),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0 = nn.Linear(4, 8)
        self.l1 = nn.Linear(8, 8)
        self.l2 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.l0(x)
        h = checkpoint(self.l1, h, use_reentrant=True)
        return self.l2(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    print(f"rank {rank}: backward finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
