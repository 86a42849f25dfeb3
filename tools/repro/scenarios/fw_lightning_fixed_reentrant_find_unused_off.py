"""Fix, in Lightning: the entry's own snippet (DDPStrategy(find_unused_parameters=False)),
rendered as the wizard renders it, trains the module with the reentrant checkpoint on two CPU
processes, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.framework_support import ReentrantCheckpointed
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="lightning-fixed-find-unused-parameters-off",
    description="fix in Lightning 2.6.6: DDPStrategy(find_unused_parameters=False)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters-off", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, net=ReentrantCheckpointed)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
