"""GPU-style wrapping code run on a CPU model: DDP(model, device_ids=[local_rank]).

device_ids tells DDP which single GPU holds the module; a module on the CPU
(here: the model was never moved to cuda:local_rank) refuses it.
"""

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="cpu-module-with-device-ids",
    description="DDP(cpu_model, device_ids=[rank]) raises ValueError in the constructor",
    expect="fail",
    key_text=(
        "ValueError: DistributedDataParallel device_ids and output_device arguments only work "
        "with single-device/multiple-device GPU modules or CPU modules, but got device_ids [",
    ),
)


def main(rank, world_size):
    local_rank = rank
    model = nn.Linear(4, 2)  # model.to(local_rank) forgotten (or no GPU on this machine)
    model = DDP(model, device_ids=[local_rank])


if __name__ == "__main__":
    launch(main, SCENARIO)
