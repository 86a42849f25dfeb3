"""The Hugging Face Trainer checkpointing a GPT-2 (built from a tiny config) reentrantly, with
ddp_find_unused_parameters=True, two CPU processes under torchrun: the forward's graph leaves
the checkpointed blocks out, DDP marks their parameters ready as unused, and the inner backward
marks them again.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import tiny_gpt2, train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="hf-trainer-reentrant-checkpoint-find-unused",
    description="transformers 5.24.0 Trainer: use_reentrant=True, ddp_find_unused_parameters=True",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to mark a variable ready only once", "transformers/trainer.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out",
        use_cpu=True,
        ddp_backend="gloo",
        gradient_checkpointing=True,
        gradient_checkpointing_kwargs={"use_reentrant": True},
        ddp_find_unused_parameters=True,
        num_train_epochs=1,
    )
    train_hf(args, rank, check=False, language_model=tiny_gpt2)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
