"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
find_unused_parameters=True)), rendered as the wizard renders it, trains the model whose layer
runs on rank 0 only on two CPU processes under torchrun, with gradients equal across ranks at
every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    variant="accelerate-fixed-find-unused-parameters",
    description="fix in Accelerate 1.15.0: find_unused_parameters=True, layer used on rank 0",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO, net=BranchOnRankZero)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
