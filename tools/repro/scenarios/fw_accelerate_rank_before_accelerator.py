"""An Accelerate script that asks torch.distributed for its rank (to seed each process apart)
before it builds the Accelerator, two CPU processes under torchrun: the Accelerator creates the
process group, so there is none yet and get_rank() refuses. The traceback has no Accelerate
frame: the call is the script's own.
"""

import torch
import torch.distributed as dist
from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="accelerate-rank-before-accelerator",
    description="Accelerate 1.15.0: dist.get_rank() before Accelerator() created the group",
    expect="fail",
    role=BROKEN,
    key_text=("Default process group has not been initialized",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    torch.manual_seed(dist.get_rank())
    names = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    accelerator.prepare(names["model"], names["optimizer"], names["dataloader"])


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
