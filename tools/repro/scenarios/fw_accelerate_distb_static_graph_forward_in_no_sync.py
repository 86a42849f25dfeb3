"""Accelerate with DistributedDataParallelKwargs(static_graph=True) and a script that
accumulates by hand, every micro-batch's forward inside accelerator.no_sync(model) and its
backward outside, two CPU processes under torchrun: the first backward comes from a forward
run under no_sync(), and static_graph's first-iteration bookkeeping trips the reducer's
expect_autograd_hooks_ assertion.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.fw_distb_support import train_forward_in_no_sync
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="accelerate-static-graph-forward-in-no-sync",
    description="Accelerate 1.15.0: static_graph=True, forward in no_sync(), backward outside",
    expect="fail",
    role=BROKEN,
    key_text=("expect_autograd_hooks_ INTERNAL ASSERT FAILED", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(static_graph=True)]
    )
    prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
    train_forward_in_no_sync(accelerator, *prepared)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
