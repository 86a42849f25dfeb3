"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
find_unused_parameters=False)), rendered as the wizard renders it, then the user's loop:
trains on two CPU processes under torchrun without the warning, gradients equal across ranks
at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="accelerate-fixed-find-unused-off",
    description="fix in Accelerate 1.15.0: the snippet, find_unused_parameters=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-off", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
