"""Fix, in Lightning: the entry's own snippet (DDPStrategy(static_graph=False,
find_unused_parameters=True)), rendered as the wizard renders it, fits the module whose
auxiliary head takes part in the first step only, on two CPU processes under torchrun, with
gradients equal across ranks at every optimizer step.
"""

from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="lightning-fixed-static-graph-off-head-first-step-only",
    description="fix in Lightning 2.6.6: DDPStrategy(static_graph=False, find_unused=True)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, net=AuxHeadFirst)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
