"""Fix, in Lightning: the entry's own snippet (the DDP strategy creates the process group and
wraps the module; no DDP(...) of the module's own), rendered as the wizard renders it, fits on
two CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fit_fix

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="lightning-fixed-strategy-creates-group",
    description="fix in Lightning 2.6.6: the entry's snippet, the strategy wraps the module",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("init-first", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fit_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
