"""Fix, in Accelerate: the entry's own snippet (Accelerator(), then prepare(model, optimizer),
no DDP of the script's own), rendered as the wizard renders it, then the user's loop: prepare()
wraps the model without device_ids on a CPU, and it trains on two CPU processes under torchrun,
gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_snippet_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="accelerate-fixed-prepare-picks-device-ids",
    description="fix in Accelerate 1.15.0: the snippet, prepare() wraps the model itself",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("device-ids-for-one-gpu-only", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_snippet_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
