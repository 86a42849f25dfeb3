"""A checkpoint saved from the DDP wrapper, loaded into the plain model for evaluation.

DDP keeps the model as its `module` attribute, so every key of
ddp_model.state_dict() starts with "module." and a plain model rejects them all.
"""

import os
import tempfile

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="saved-from-ddp-loaded-into-plain-model",
    description="torch.save(ddp.state_dict()), then plain_model.load_state_dict() raises",
    expect="fail",
    key_text=(
        'Missing key(s) in state_dict: "weight", "bias". ',
        'Unexpected key(s) in state_dict: "module.weight", "module.bias". ',
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 2))
    path = os.path.join(tempfile.gettempdir(), f"g4-ckpt-{os.getpid()}.pt")
    torch.save(model.state_dict(), path)  # keys: module.weight, module.bias
    plain = nn.Linear(4, 2)
    try:
        plain.load_state_dict(torch.load(path))
    finally:
        os.remove(path)


if __name__ == "__main__":
    launch(main, SCENARIO)
