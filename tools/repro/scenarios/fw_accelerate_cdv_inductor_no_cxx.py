"""Accelerate with dynamo_backend="inductor" on a machine whose C++ compiler is missing (CXX
names one that does not exist): prepare() compiles the model, and Inductor's first compilation,
in the first forward, fails on every rank with InvalidCxxCompiler, on two CPU processes under
torchrun.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="accelerate-inductor-no-cxx-compiler",
    description='Accelerate 1.15.0: dynamo_backend="inductor", CXX naming no compiler',
    expect="fail",
    role=BROKEN,
    key_text=("InvalidCxxCompiler: No working C++ compiler found",),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator(dynamo_backend="inductor")
    accelerate_train(
        accelerator,
        *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
