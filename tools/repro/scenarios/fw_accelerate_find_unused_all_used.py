"""Accelerate with DistributedDataParallelKwargs(find_unused_parameters=True) on a model whose
parameters are all used, two CPU processes under torchrun: training completes, and the
reducer warns once per process that the search for unused parameters found none.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="accelerate-find-unused-all-used",
    description="Accelerate 1.15.0: find_unused_parameters=True, every parameter used; warns",
    expect="complete",
    role=BROKEN,
    key_text=(
        "find_unused_parameters=True was specified in DDP constructor, "
        "but did not find any unused parameters",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(find_unused_parameters=True)]
    )
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
