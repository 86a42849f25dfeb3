"""Accelerate with DistributedDataParallelKwargs(static_graph=True) and a script that backwards
the losses of its two heads separately, two CPU processes under torchrun: the second backward
fires hooks the first iteration's graph did not hold, and static_graph refuses the changed
graph.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import train_two_backwards
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="accelerate-static-graph-two-backwards",
    description="Accelerate 1.15.0: static_graph=True, accelerator.backward of two losses",
    expect="fail",
    role=BROKEN,
    key_text=("Your training graph has changed in this iteration", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    static = DistributedDataParallelKwargs(static_graph=True)
    train_two_backwards(Accelerator(cpu=True, kwargs_handlers=[static]), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
