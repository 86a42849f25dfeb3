"""A Trainer script on a machine where an old DeepSpeed (before 0.8.1) is still installed,
though the script does not use it (transformers 5.24.0, Accelerate 1.15.0, torch 2.13.0, two
CPU processes under torchrun): Trainer(...) itself unwraps the model through Accelerate
(transformers/trainer.py, accelerator.unwrap_model), which imports DeepSpeed because it is
installed, and DeepSpeed's `from torch._six import inf` fails with "No module named
'torch._six'" before training starts. The old DeepSpeed is fw_sysenv_support's stand-in.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_sysenv_support import old_deepspeed_installed
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="torch-six-removed",
    variant="hf-trainer-old-deepspeed-installed",
    description="transformers 5.24.0 beside DeepSpeed 0.8.0: Trainer() imports torch._six",
    expect="fail",
    role=BROKEN,
    key_text=(
        "ModuleNotFoundError: No module named 'torch._six'",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    fresh_processes=True,
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", num_train_epochs=1)
    train_hf(args, rank, check=False)


if __name__ == "__main__":
    # The old DeepSpeed is on the machine before the script imports its framework.
    old_deepspeed_installed()
    launch_without_group(main, SCENARIO)
