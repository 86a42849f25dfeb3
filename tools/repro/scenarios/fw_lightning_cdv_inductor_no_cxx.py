"""Lightning's DDP strategy fitting a LightningModule compiled with torch.compile (Inductor, the
default backend) on a machine whose C++ compiler is missing (CXX names one that does not
exist): Inductor's first compilation, in the first training_step, fails on every rank with
InvalidCxxCompiler, on two CPU processes under torchrun.
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="lightning-compiled-no-cxx-compiler",
    description="Lightning 2.6.6: torch.compile(module) then fit, CXX naming no compiler",
    expect="fail",
    role=BROKEN,
    key_text=("InvalidCxxCompiler: No working C++ compiler found", "lightning/pytorch/"),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    model = torch.compile(lightning_module_class()())
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=model)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
