"""Fix, in the Hugging Face Trainer: the entry's own snippet (gradient_accumulation_steps=4, the
Trainer placing no_sync() around the forward and backward of the non-final micro-batches, no
hand-written no_sync()), rendered as the wizard renders it, trains on two CPU processes under
torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="hf-trainer-fixed-align-no-sync",
    description="fix in the transformers 5.24.0 Trainer: gradient_accumulation_steps",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("align-no-sync", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
