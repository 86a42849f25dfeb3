"""Accelerate's Accelerator and the init_process_group() a plain DDP script had: the script
calls it after building the Accelerator, which has created the process group by then, so
init_process_group() refuses, on two CPU processes under torchrun.
"""

import torch.distributed as dist
from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="accelerate-init-after-accelerator",
    description="Accelerate 1.15.0: init_process_group() after Accelerator() created the group",
    expect="fail",
    role=BROKEN,
    key_text=("trying to initialize the default process group twice!",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    dist.init_process_group("gloo")
    accelerator.prepare(names["model"], names["optimizer"], names["dataloader"])


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
