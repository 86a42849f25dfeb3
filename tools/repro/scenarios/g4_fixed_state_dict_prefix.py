"""Fix: save model.module.state_dict(); strip "module." from checkpoints saved the old way."""

import os
import tempfile

import torch
import torch.nn as nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="fixed-save-module-state-dict",
    description="fix: save ddp.module.state_dict(); old prefixed checkpoints loaded via consume",
    expect="complete",
    role=FIXED,
    key_text=("both checkpoints loaded into the plain model",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 2))
    tmp = tempfile.gettempdir()
    new_path = os.path.join(tmp, f"g4-fixed-{os.getpid()}.pt")
    old_path = os.path.join(tmp, f"g4-old-{os.getpid()}.pt")
    torch.save(model.module.state_dict(), new_path)  # keys: weight, bias
    torch.save(model.state_dict(), old_path)  # an old checkpoint: module.weight, module.bias
    try:
        plain = nn.Linear(4, 2)
        plain.load_state_dict(torch.load(new_path))
        old = torch.load(old_path)
        consume_prefix_in_state_dict_if_present(old, "module.")
        plain.load_state_dict(old)
        model.module.load_state_dict(torch.load(new_path))  # loading into the wrapper
    finally:
        os.remove(new_path)
        os.remove(old_path)
    assert torch.equal(plain.weight, model.module.weight)
    if rank == 0:
        print("both checkpoints loaded into the plain model")


if __name__ == "__main__":
    launch(main, SCENARIO)
