"""The Hugging Face Trainer asked for bf16 on a machine with no GPU (bf16=True, and no
use_cpu=True in the script): TrainingArguments refuses it as it is built, before any training,
on two CPU processes under torchrun.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="bf16-unsupported",
    variant="hf-trainer-bf16-without-gpu",
    description="transformers 5.24.0 Trainer: bf16=True on a machine without a GPU",
    expect="fail",
    role=BROKEN,
    key_text=("Your setup doesn't support bf16/gpu.", "transformers/training_args.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    TrainingArguments(output_dir="out", ddp_backend="gloo", bf16=True, num_train_epochs=1)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
