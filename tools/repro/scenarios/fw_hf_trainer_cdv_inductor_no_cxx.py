"""The Hugging Face Trainer with torch_compile=True (Inductor, its default backend) on a machine
whose C++ compiler is missing (CXX names one that does not exist): Inductor's first
compilation, in the first training step, fails on every rank with InvalidCxxCompiler, on two
CPU processes under torchrun.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="hf-trainer-torch-compile-no-cxx-compiler",
    description="transformers 5.24.0 Trainer: torch_compile=True, CXX naming no compiler",
    expect="fail",
    role=BROKEN,
    key_text=("InvalidCxxCompiler: No working C++ compiler found", "transformers/trainer.py"),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", torch_compile=True)
    train_hf(args, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
