"""Fix, in the Hugging Face Trainer: the entry's own snippet (one gradient_accumulation_steps for
every rank, dataloader_drop_last=True), rendered as the wizard renders it, trains on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    variant="hf-trainer-fixed-same-accumulation-every-rank",
    description="fix in the transformers 5.24.0 Trainer: the snippet, one accumulation setting",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-window-every-rank", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
