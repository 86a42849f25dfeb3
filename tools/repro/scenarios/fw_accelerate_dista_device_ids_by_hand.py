"""An Accelerate script ported from a GPU script that still wraps the model itself, with
device_ids=[local_process_index], before prepare(): on a CPU the module is on no GPU, and DDP's
constructor refuses the device_ids, on two CPU processes under torchrun.
"""

from accelerate import Accelerator
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="accelerate-device-ids-by-hand",
    description="Accelerate 1.15.0 on CPU: DDP(model, device_ids=[local_process_index]) by hand",
    expect="fail",
    role=BROKEN,
    key_text=(
        "DistributedDataParallel device_ids and output_device arguments only work with "
        "single-device/multiple-device GPU modules or CPU modules",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    model = DDP(names["model"], device_ids=[accelerator.local_process_index])
    model, optimizer, dataloader = accelerator.prepare(
        model, names["optimizer"], names["dataloader"]
    )
    accelerate_train(accelerator, model, optimizer, dataloader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
