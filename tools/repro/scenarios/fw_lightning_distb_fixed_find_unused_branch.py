"""Fix, in Lightning: the entry's own snippet (strategy="ddp_find_unused_parameters_true"),
rendered as the wizard renders it, fits the module whose layer runs on rank 0 only on two CPU
processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    variant="lightning-fixed-find-unused-parameters",
    description="fix in Lightning 2.6.6: ddp_find_unused_parameters_true, layer used on rank 0",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, net=BranchOnRankZero)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
