"""The Hugging Face Trainer with ddp_find_unused_parameters=True on a model whose parameters
are all used, two CPU processes under torchrun: training completes, and the reducer warns once
per process that the search for unused parameters found none and only cost time.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="hf-trainer-find-unused-all-used",
    description="transformers 5.24.0 Trainer: ddp_find_unused_parameters=True, all used; warns",
    expect="complete",
    role=BROKEN,
    key_text=(
        "find_unused_parameters=True was specified in DDP constructor, "
        "but did not find any unused parameters",
        "'train_runtime'",
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
        ddp_find_unused_parameters=True,
        num_train_epochs=1,
    )
    train_hf(args, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
