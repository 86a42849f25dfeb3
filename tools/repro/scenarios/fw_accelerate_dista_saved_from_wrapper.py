"""An Accelerate script that saves the prepared model's state_dict (the DDP wrapper's) and
loads it into a fresh model: every key has DDP's "module." in front, and load_state_dict
refuses them, on two CPU processes under torchrun.
"""

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import MeanSquare, accelerate_names, accelerate_train
from tools.repro.framework_support import network
from tools.repro.fw_dista_support import work_in_own_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="accelerate-saved-from-wrapper",
    description="Accelerate 1.15.0: the prepared model's state_dict loaded into a plain model",
    expect="fail",
    role=BROKEN,
    key_text=('Unexpected key(s) in state_dict: "module.net.0.weight"',),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    names = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    accelerate_train(accelerator, model, optimizer, dataloader)
    accelerator.wait_for_everyone()
    accelerator.save(model.state_dict(), "model.pt")
    if accelerator.is_main_process:
        MeanSquare(network()).load_state_dict(torch.load("model.pt"))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
