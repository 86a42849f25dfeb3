"""An Accelerate script on a machine where an old DeepSpeed (before 0.8.1) is still installed,
though the script does not use it (Accelerate 1.15.0, torch 2.13.0, two CPU processes under
torchrun): prepare() and the steps run, then accelerator.unwrap_model(), as before saving,
imports DeepSpeed because it is installed (accelerate/utils/other.py,
extract_model_from_parallel), and DeepSpeed's `from torch._six import inf` fails with
"No module named 'torch._six'". The old DeepSpeed is fw_sysenv_support's stand-in.
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.fw_sysenv_support import old_deepspeed_installed
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="torch-six-removed",
    variant="accelerate-old-deepspeed-unwrap-model",
    description="Accelerate 1.15.0 beside DeepSpeed 0.8.0: unwrap_model() imports torch._six",
    expect="fail",
    role=BROKEN,
    key_text=(
        "ModuleNotFoundError: No module named 'torch._six'",
        "accelerate/utils/other.py",
    ),
    launchers=("torchrun",),
    fresh_processes=True,
)


def main(rank, world_size):
    from accelerate import Accelerator

    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = accelerator.prepare(
        script["model"], script["optimizer"], script["dataloader"]
    )
    accelerate_train(accelerator, model, optimizer, dataloader)
    accelerator.unwrap_model(model)


if __name__ == "__main__":
    # The old DeepSpeed is on the machine before the script imports its framework.
    old_deepspeed_installed()
    launch_without_group(main, SCENARIO)
