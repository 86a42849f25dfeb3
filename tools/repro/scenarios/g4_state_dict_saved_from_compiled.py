"""A checkpoint saved from a compiled DDP model, loaded into the plain model.

torch.compile keeps the model it compiles as its `_orig_mod` attribute, the way DDP keeps
its own as `module`; torch.compile(DDP(model)), the order PyTorch recommends, therefore
saves every key as "_orig_mod.module.<name>". Nothing is compiled: the keys exist as soon
as the model is wrapped.
"""

import os
import tempfile

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="saved-from-compiled-ddp-loaded-into-plain-model",
    description="torch.save(torch.compile(DDP(m)).state_dict()), then plain load raises",
    expect="fail",
    key_text=(
        'Missing key(s) in state_dict: "weight", "bias". ',
        'Unexpected key(s) in state_dict: "_orig_mod.module.weight", "_orig_mod.module.bias". ',
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.compile(DDP(nn.Linear(4, 2)))
    path = os.path.join(tempfile.gettempdir(), f"g4-compiled-{os.getpid()}.pt")
    torch.save(model.state_dict(), path)  # keys: _orig_mod.module.weight, ...
    plain = nn.Linear(4, 2)
    try:
        plain.load_state_dict(torch.load(path))
    finally:
        os.remove(path)


if __name__ == "__main__":
    launch(main, SCENARIO)
