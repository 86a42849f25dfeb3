"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_find_unused_parameters=True),
rendered as the wizard renders it, trains the model whose layer runs on rank 0 only on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    variant="hf-trainer-fixed-find-unused-parameters",
    description="fix in the transformers 5.24.0 Trainer: ddp_find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "4"}, net=BranchOnRankZero)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
