"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
static_graph=False, find_unused_parameters=True)), rendered as the wizard renders it, trains
the model whose auxiliary head takes part in the first step only, on two CPU processes under
torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="accelerate-fixed-static-graph-off-head-first-step-only",
    description="fix in Accelerate 1.15.0: static_graph=False, find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO, net=AuxHeadFirst)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
