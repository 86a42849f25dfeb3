"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(static_graph=True,
find_unused_parameters=False)), rendered as the wizard renders it, trains the model on two CPU
processes under torchrun with static_graph on from the start, with gradients equal across
ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="accelerate-fixed-static-graph-in-constructor",
    description="fix in Accelerate 1.15.0: static_graph=True, find_unused_parameters=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-in-constructor", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
