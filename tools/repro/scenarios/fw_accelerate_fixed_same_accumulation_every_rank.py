"""Fix, in Accelerate: the entry's own snippet (one gradient_accumulation_steps for every rank,
even_batches=True, the loop under accelerator.accumulate()), rendered as the wizard renders it,
trains on two CPU processes under torchrun, with gradients equal across ranks at every
optimizer step.
"""

from tools.repro.accelerate_support import accelerate_loop_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    variant="accelerate-fixed-same-accumulation-every-rank",
    description="fix in Accelerate 1.15.0: the snippet, one gradient_accumulation_steps",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-window-every-rank", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_loop_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
