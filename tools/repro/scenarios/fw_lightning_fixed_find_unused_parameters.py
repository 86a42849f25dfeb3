"""Fix, in Lightning: the entry's own Lightning snippet
(strategy="ddp_find_unused_parameters_true"), rendered as the wizard renders it, trains the
module with the unused layer on two CPU processes, gradients equal across ranks at every step.
"""

from tools.repro.framework_support import Unused
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="lightning-fixed-find-unused-parameters",
    description="fix in Lightning 2.6.6: the entry's snippet, ddp_find_unused_parameters_true",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, net=Unused)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
