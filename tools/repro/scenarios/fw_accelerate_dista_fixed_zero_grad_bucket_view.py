"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
gradient_as_bucket_view=True)), rendered as the wizard renders it, then the user's loop, which
clears gradients with optimizer.zero_grad(): trains on two CPU processes under torchrun,
gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="accelerate-fixed-zero-grad-bucket-view",
    description="fix in Accelerate 1.15.0: the snippet, bucket views cleared by zero_grad()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("optimizer-zero-grad", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
