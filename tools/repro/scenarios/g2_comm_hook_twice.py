"""Two communication hooks registered on one DDP model.

The reducer accepts a single hook; a second register_comm_hook (for example
one from the framework and one from the script) is refused.
"""

import torch
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-comm-hook-twice",
    variant="register-comm-hook-twice",
    description="register_comm_hook called twice on one DDP model; raises RuntimeError",
    expect="fail",
    key_text=("register_comm_hook or register_builtin_comm_hook can only be called once.",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    model.register_comm_hook(None, default_hooks.fp16_compress_hook)
    model.register_comm_hook(None, default_hooks.allreduce_hook)  # a second hook
    model(torch.randn(8, 4)).sum().backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
