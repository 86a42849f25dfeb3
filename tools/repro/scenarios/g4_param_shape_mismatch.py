"""Each rank builds its model from its own config: rank 1 got a different hidden size.

DDP's constructor compares every parameter's shape against rank 0 before
training starts.  Only the mismatching rank gets the readable message; rank 0
sees its peer drop the connection.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="hidden-size-differs-on-rank-1",
    description="rank 1 builds Linear(4, 5) where rank 0 builds Linear(4, 4); DDP() raises",
    expect="fail",
    key_text=(
        "params[0] in this process with sizes [5, 4] appears not to match sizes of the same "
        "param in process 0.",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    hidden = 4 if rank == 0 else 5  # e.g. a config file or tokenizer that differs per node
    model = DDP(nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, 1)))
    model(torch.randn(8, 4)).mean().backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
