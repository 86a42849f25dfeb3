"""A Trainer script written for GPU nodes that moves its model to the GPU itself,
`model.to("cuda")`, before handing it to the Trainer, on the CPU build of torch 2.13.0
(transformers 5.24.0, two processes under torchrun): torch refuses with "AssertionError: Torch
not compiled with CUDA enabled" on every rank, before the Trainer starts.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    network,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="hf-trainer-model-to-cuda-on-cpu-build",
    description='transformers 5.24.0: model.to("cuda") before the Trainer, on a CPU build',
    expect="fail",
    role=BROKEN,
    key_text=("AssertionError: Torch not compiled with CUDA enabled",),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", num_train_epochs=1)
    train_hf(args, rank, net=lambda: network().to("cuda"), check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
