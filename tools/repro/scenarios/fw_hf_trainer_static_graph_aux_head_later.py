"""The Hugging Face Trainer with ddp_static_graph=True and a model whose auxiliary head joins
the output after the first step, two CPU processes under torchrun: static_graph took the first
iteration's graph for every iteration's, and the second step's backward reaches a parameter it
did not.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import AuxHeadLater, train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="hf-trainer-static-graph-aux-head-later",
    description="transformers 5.24.0 Trainer: ddp_static_graph=True, a head used from step 2",
    expect="fail",
    role=BROKEN,
    key_text=("Your training graph has changed in this iteration", "transformers/trainer.py"),
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
        num_train_epochs=1,
    )
    train_hf(args, rank, net=AuxHeadLater, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
