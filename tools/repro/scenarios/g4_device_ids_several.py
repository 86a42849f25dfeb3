"""Single-process multi-GPU style: every visible device passed in device_ids.

Since DDP dropped single-process multi-device mode it takes at most one
device id per process.
"""

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="several-device-ids",
    description="DDP(model, device_ids=[0, 1]) raises ValueError before looking at devices",
    expect="fail",
    key_text=("ValueError: device_ids can only be None or contain a single element.",),
)


def main(rank, world_size):
    model = DDP(nn.Linear(4, 2), device_ids=[0, 1])
    del model


if __name__ == "__main__":
    launch(main, SCENARIO)
