"""Accelerate with InitProcessGroupKwargs(timeout=4 s) and a loop that does 5 s of work on rank
0 only after the first step (a checkpoint written), two CPU processes under torchrun: rank 1
goes on to the next step's all-reduce and gives up waiting for rank 0 after the timeout.
"""

from datetime import timedelta

from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.fw_distc_support import SHORT_TIMEOUT_S, accelerate_train_with_late_rank
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="accelerate-rank-0-late-for-all-reduce",
    description="Accelerate 1.15.0: timeout 4 s, rank 0 busy 5 s after its first step",
    expect="fail",
    role=BROKEN,
    key_text=("Timed out waiting 4000ms", "_pre_forward"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True,
        kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=SHORT_TIMEOUT_S))],
    )
    accelerate_train_with_late_rank(
        accelerator,
        rank,
        *accelerator.prepare(names["model"], names["optimizer"], names["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
