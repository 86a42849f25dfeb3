"""Fix, in Lightning: the entry's own snippet (strategy="ddp", find_unused_parameters off),
rendered as the wizard renders it, trains the same module on two CPU processes without the
warning, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="lightning-fixed-find-unused-off",
    description='fix in Lightning 2.6.6: the entry\'s snippet, strategy="ddp"',
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-off", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
