"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
find_unused_parameters=True)), rendered as the wizard renders it, then the user's loop: trains
the model with the unused layer on two CPU processes under torchrun, gradients equal across
ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.framework_support import Unused
from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="accelerate-fixed-find-unused-parameters",
    description="fix in Accelerate 1.15.0: the snippet, find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO, net=Unused)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
