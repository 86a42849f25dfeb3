"""Fix, in Lightning: the entry's own snippet (DDPStrategy(gradient_as_bucket_view=True),
gradients cleared by the optimizer, no grad.detach_() of the module's), rendered as the wizard
renders it, trains on two CPU processes under torchrun, gradients equal across ranks at every
optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="lightning-fixed-zero-grad-bucket-view",
    description="fix in Lightning 2.6.6: the snippet, bucket views cleared by the optimizer",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("optimizer-zero-grad", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
