"""The Hugging Face Trainer with ddp_static_graph=True and gradient_accumulation_steps=4, two
CPU processes under torchrun: the Trainer (through Accelerate's accumulate()) enters no_sync()
for every non-final micro-batch, so the static graph's first backward runs unsynchronised and
the reducer's assertion fires inside Trainer.train.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="hf-trainer-static-graph-accumulation",
    description="transformers 5.24.0 Trainer: ddp_static_graph=True, gradient_accumulation_steps=4",
    expect="fail",
    role=BROKEN,
    key_text=("expect_autograd_hooks_ INTERNAL ASSERT FAILED", "transformers/trainer.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out",
        use_cpu=True,
        ddp_backend="gloo",
        ddp_static_graph=True,
        gradient_accumulation_steps=4,
        num_train_epochs=1,
    )
    train_hf(args, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
