"""Fix, in Accelerate: the entry's own snippet (Accelerator(gradient_accumulation_steps=4) and
accelerator.accumulate(), which places no_sync() around the forward and backward of the
non-final micro-batches), rendered as the wizard renders it, trains on two CPU processes under
torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_loop_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="accelerate-fixed-align-no-sync",
    description="fix in Accelerate 1.15.0: gradient_accumulation_steps and accumulate()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("align-no-sync", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_loop_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
