"""Fix, in the Hugging Face Trainer: the entry's own snippet (bf16 only where
torch.cuda.is_bf16_supported(), fp16 otherwise), rendered as the wizard renders it, builds the
TrainingArguments that train on two CPU processes under torchrun, with gradients equal across
ranks before every optimizer step. Without a GPU it chooses fp16, which the Trainer's
Accelerator (1.15.0) leaves off on a CPU: no autocast, no GradScaler.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="bf16-unsupported",
    variant="hf-trainer-fixed-fp16-or-fp32",
    description="fix in the transformers 5.24.0 Trainer: the snippet, bf16 only where supported",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("fp16-or-fp32-instead", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
