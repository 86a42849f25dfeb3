"""Fix: save model.module.state_dict(); strip "module." (and torch.compile's "_orig_mod.")
from checkpoints saved the old way.

Runs the entry's own plain-PyTorch snippet in each rank's own working directory, once with an
old.pt saved from the DDP wrapper and once with one saved from torch.compile(DDP(model)) (the
broken runs' checkpoints): it trains, saves model.pt from the model inside the wrapper, strips
the prefixes from old.pt before loading it into the plain model, and loads model.pt back into
the wrapped model through `.module`.
"""

import contextlib
import tempfile

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="fixed-save-module-state-dict",
    description="fix (the entry's snippet): save .module.state_dict(); old checkpoints consumed",
    expect="complete",
    role=FIXED,
    key_text=("every checkpoint loaded into the plain model",),
    snippet=("save-and-load-the-inner-module", "pytorch"),
)


class Loss(nn.Module):
    """The snippet's `model(batch)` is the loss, as in a script whose model computes it."""

    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 2)

    def forward(self, batch):
        return self.layer(batch).pow(2).mean()


def main(rank, world_size):
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_with_old_checkpoint(code, rank, lambda model: model.state_dict())  # "module.<name>"
    run_with_old_checkpoint(code, rank, lambda model: torch.compile(model).state_dict())
    if rank == 0:
        print("every checkpoint loaded into the plain model")


def run_with_old_checkpoint(code, rank, state_dict_of):
    torch.manual_seed(0)
    model = DDP(Loss())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    untrained = {k: v.clone() for k, v in model.module.state_dict().items()}
    torch.manual_seed(rank + 1)
    plain_model = Loss()
    with tempfile.TemporaryDirectory() as run_dir, contextlib.chdir(run_dir):
        torch.save(state_dict_of(model), "old.pt")  # saved the old way, before training
        run_snippet(
            code,
            model=model,
            batch=torch.randn(8, 4),
            optimizer=optimizer,
            num_training_steps=3,
            plain_model=plain_model,
        )
        saved = torch.load("model.pt")
    assert len(steps) == 3, steps
    trained = model.module.state_dict()
    assert saved.keys() == trained.keys(), list(saved)  # plain names, no prefix
    assert all(torch.equal(saved[k], v) for k, v in trained.items())
    loaded = plain_model.state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in untrained.items()), "old.pt not loaded"


if __name__ == "__main__":
    launch(main, SCENARIO)
