"""Accelerate without find_unused_parameters and a model whose network runs a layer on rank 0
only (a data-dependent branch), two CPU processes under torchrun: rank 1 never reports that
layer's gradient, so its bucket is all-reduced on rank 0 alone; rank 1 runs its next forward
and raises "Expected to have finished reduction in the prior iteration", the text of
ddp-unused-params-prior-reduction, whose folder the capture goes to, while rank 0 loses its
peer. The process group's timeout is 8 s (InitProcessGroupKwargs) should both wait instead.
"""

from datetime import timedelta

from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    shows="ddp-unused-params-prior-reduction",
    variant="accelerate-branch-used-on-one-rank",
    description="Accelerate 1.15.0: default DDP and a layer used on rank 0 only",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Expected to have finished reduction in the prior iteration",
        "accelerate/",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank, net=BranchOnRankZero)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=8))]
    )
    accelerate_train(
        accelerator,
        *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
