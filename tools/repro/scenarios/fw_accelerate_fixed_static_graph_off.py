"""Fix, in Accelerate: the entry's own Accelerate snippet (static_graph=False in
DistributedDataParallelKwargs, GradientAccumulationPlugin(num_steps=4)), rendered as the
wizard renders it, trains on two CPU processes under torchrun, with gradients equal across
ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_loop_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="accelerate-fixed-static-graph-off",
    description="fix in Accelerate 1.15.0: the entry's snippet, static_graph=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_loop_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
