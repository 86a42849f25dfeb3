"""Fix, in Accelerate: the entry's own snippet (Accelerator(cpu=True)), rendered as the wizard
renders it, then the user's loop: Accelerate sets up gloo and the model trains on two CPU
processes under torchrun, gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="accelerate-fixed-backend-for-device",
    description="fix in Accelerate 1.15.0: the snippet, Accelerator(cpu=True), gloo",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("backend-for-device", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
