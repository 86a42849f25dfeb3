"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_find_unused_parameters=True),
rendered as the wizard renders it, trains the model with the unused layer on two CPU processes
under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import Unused, hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="hf-trainer-fixed-find-unused-parameters",
    description="fix in the transformers 5.24.0 Trainer: ddp_find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "4"}, net=Unused)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
