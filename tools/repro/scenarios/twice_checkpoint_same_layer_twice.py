"""Reentrant checkpointing of the same layer twice in one forward (default DDP).

checkpoint(..., use_reentrant=True) re-runs the layer inside its own backward
pass, so l1's autograd hooks fire once per checkpoint call -> DDP sees l1's
parameters become ready twice in one iteration.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="checkpoint-same-layer-twice",
    description="checkpoint(l1, use_reentrant=True) twice in one forward; first backward raises",
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
        h = checkpoint(self.l1, h, use_reentrant=True)  # same layer again
        return self.l2(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    print(f"rank {rank}: backward finished")


if __name__ == "__main__":
    launch(main, SCENARIO)
