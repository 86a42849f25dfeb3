"""The Hugging Face Trainer with ddp_find_unused_parameters=False and a model with a layer its
forward never uses, two CPU processes under torchrun: the second step finds the first one's
reduction unfinished, inside Trainer.train.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import Unused, train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="hf-trainer-unused-parameter",
    description="transformers 5.24.0 Trainer: ddp_find_unused_parameters=False, an unused layer",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Expected to have finished reduction in the prior iteration",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out",
        use_cpu=True,
        ddp_backend="gloo",
        ddp_find_unused_parameters=False,
        num_train_epochs=1,
    )
    train_hf(args, rank, net=Unused, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
