"""Accelerate with shards cut by hand, 2 batches on rank 0 and 4 on rank 1 (which prepare()
splits again, leaving 1 and 2), two CPU processes under torchrun: rank 0 leaves the loop for
the script's closing wait_for_everyone() while rank 1's second backward waits in an all-reduce
nobody joins, until the process group's timeout (4 s here, through InitProcessGroupKwargs).
"""

from datetime import timedelta

from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.fw_distc_support import SHORT_TIMEOUT_S, uneven_shard
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    shows="gloo-collective-timeout",
    variant="accelerate-uneven-shards",
    description="Accelerate 1.15.0: hand-cut shards of 2 and 4 batches (1 and 2 prepared); hangs",
    expect="fail",
    role=BROKEN,
    key_text=("Timed out waiting 4000ms", "accelerate/"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True,
        kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=SHORT_TIMEOUT_S))],
    )
    accelerate_train(
        accelerator, *accelerator.prepare(names["model"], names["optimizer"], uneven_shard(rank))
    )
    accelerator.wait_for_everyone()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
