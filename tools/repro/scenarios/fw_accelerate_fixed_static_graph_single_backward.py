"""Fix, in Accelerate: the entry's own snippet (one accelerator.backward of the sum of the two
losses), rendered as the wizard renders it, is the loop of the script whose Accelerator keeps
DistributedDataParallelKwargs(static_graph=True), on two CPU processes under torchrun, with
gradients equal across ranks at every optimizer step.
"""

from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import single_backward_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="accelerate-fixed-static-graph-single-backward",
    description="fix in Accelerate 1.15.0: one backward of the summed losses, static_graph kept",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "accelerate"),
    preload=("accelerate",),
)


main = single_backward_fix(
    SCENARIO, kwargs_handlers=[DistributedDataParallelKwargs(static_graph=True)]
)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
