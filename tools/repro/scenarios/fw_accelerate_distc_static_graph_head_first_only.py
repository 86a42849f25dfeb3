"""Accelerate with DistributedDataParallelKwargs(static_graph=True) and a model whose auxiliary
head takes part in the first step only (a warm-up loss term), two CPU processes under
torchrun: static_graph took the first iteration's graph for every iteration's, the second step
leaves the head's reduction unfinished, and the third forward refuses to start.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="accelerate-static-graph-head-first-step-only",
    description="Accelerate 1.15.0: DDP static_graph=True, a head used in step 1 only",
    expect="fail",
    role=BROKEN,
    key_text=(
        "one parameter is used in first iteration, but then got unused in the second iteration",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank, net=AuxHeadFirst)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(static_graph=True)]
    )
    accelerate_train(
        accelerator,
        *accelerator.prepare(names["model"], names["optimizer"], names["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
