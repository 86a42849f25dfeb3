"""Fix, in Accelerate: the entry's own snippet (one accelerator.backward of the sum of the two
losses), rendered as the wizard renders it, is the loop of the script that prepared its
two-headed model, on two CPU processes under torchrun, with gradients equal across ranks at
every optimizer step.
"""

from tools.repro.accelerate_support import single_backward_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="accelerate-fixed-single-backward",
    description="fix in Accelerate 1.15.0: the snippet, one backward of the summed losses",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "accelerate"),
    preload=("accelerate",),
)


main = single_backward_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
