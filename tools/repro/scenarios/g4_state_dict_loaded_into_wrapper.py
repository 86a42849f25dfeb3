"""The reverse: a plain checkpoint (pretrained weights) loaded into the DDP wrapper."""

import os
import tempfile

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="plain-checkpoint-loaded-into-ddp",
    description="ddp_model.load_state_dict(plain_state_dict) raises: keys lack 'module.'",
    expect="fail",
    key_text=(
        'Missing key(s) in state_dict: "module.weight", "module.bias". ',
        'Unexpected key(s) in state_dict: "weight", "bias". ',
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    path = os.path.join(tempfile.gettempdir(), f"g4-pretrained-{os.getpid()}.pt")
    torch.save(nn.Linear(4, 2).state_dict(), path)  # keys: weight, bias
    model = DDP(nn.Linear(4, 2))
    try:
        model.load_state_dict(torch.load(path))
    finally:
        os.remove(path)


if __name__ == "__main__":
    launch(main, SCENARIO)
