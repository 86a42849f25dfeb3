"""An Accelerate script that freezes the encoder on the main process only (under
`if accelerator.is_main_process:`) before prepare(): rank 0 has two trainable parameters fewer
than rank 1, and DDP's constructor, inside prepare(), refuses the ranks' different counts, on
two CPU processes under torchrun.
"""

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.fw_dista_support import EncodedLoss
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="accelerate-frozen-on-main-process",
    description="Accelerate 1.15.0: the encoder frozen under is_main_process before prepare()",
    expect="fail",
    role=BROKEN,
    key_text=("DDP expects same model across all ranks, but Rank", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    accelerator = Accelerator(cpu=True)
    model = EncodedLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if accelerator.is_main_process:
        model.encoder.requires_grad_(False)
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerate_train(accelerator, model, optimizer, accelerate_names(rank)["dataloader"])


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
