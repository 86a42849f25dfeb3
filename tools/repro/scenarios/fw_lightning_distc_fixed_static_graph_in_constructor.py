"""Fix, in Lightning: the entry's own snippet (DDPStrategy(static_graph=True,
find_unused_parameters=False)), rendered as the wizard renders it, fits the module on two CPU
processes under torchrun with static_graph on from the start, with gradients equal across
ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="lightning-fixed-static-graph-in-constructor",
    description="fix in Lightning 2.6.6: DDPStrategy(static_graph=True, find_unused=False)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-in-constructor", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
