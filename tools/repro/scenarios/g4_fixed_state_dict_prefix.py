"""Fix: save model.module.state_dict(); strip "module." (and torch.compile's "_orig_mod.")
from checkpoints saved the old way."""

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
    description="fix: save .module.state_dict(); old prefixed checkpoints loaded via consume",
    expect="complete",
    role=FIXED,
    key_text=("every checkpoint loaded into the plain model",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Linear(4, 2))
    tmp = tempfile.gettempdir()
    new_path = os.path.join(tmp, f"g4-fixed-{os.getpid()}.pt")
    old_path = os.path.join(tmp, f"g4-old-{os.getpid()}.pt")
    torch.save(model.module.state_dict(), new_path)  # keys: weight, bias
    torch.save(model.state_dict(), old_path)  # an old checkpoint: module.weight, module.bias
    compiled = torch.compile(model)
    compiled_path = os.path.join(tmp, f"g4-compiled-{os.getpid()}.pt")
    torch.save(compiled.state_dict(), compiled_path)  # _orig_mod.module.weight, ...
    torch.save(compiled.module.state_dict(), new_path)  # through the compiled model: weight, bias
    try:
        plain = nn.Linear(4, 2)
        plain.load_state_dict(torch.load(new_path))
        old = torch.load(old_path)
        consume_prefix_in_state_dict_if_present(old, "module.")
        plain.load_state_dict(old)
        old = torch.load(compiled_path)
        consume_prefix_in_state_dict_if_present(old, "_orig_mod.")
        consume_prefix_in_state_dict_if_present(old, "module.")
        plain.load_state_dict(old)
        model.module.load_state_dict(torch.load(new_path))  # loading into the wrapper
    finally:
        os.remove(new_path)
        os.remove(old_path)
        os.remove(compiled_path)
    assert torch.equal(plain.weight, model.module.weight)
    if rank == 0:
        print("every checkpoint loaded into the plain model")


if __name__ == "__main__":
    launch(main, SCENARIO)
