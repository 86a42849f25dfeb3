"""Accelerate with DistributedDataParallelKwargs(static_graph=True) and a model whose auxiliary
head joins the loss after the first step, two CPU processes under torchrun: static_graph took
the first iteration's graph for every iteration's, and the second step's backward reaches a
parameter it did not, in accelerator.backward.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.framework_support import AuxHeadLater
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="accelerate-static-graph-aux-head-later",
    description="Accelerate 1.15.0: DDP static_graph=True, a head used from step 2",
    expect="fail",
    role=BROKEN,
    key_text=("Your training graph has changed in this iteration", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank, net=AuxHeadLater)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(static_graph=True)]
    )
    accelerate_train(
        accelerator,
        *accelerator.prepare(names["model"], names["optimizer"], names["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
