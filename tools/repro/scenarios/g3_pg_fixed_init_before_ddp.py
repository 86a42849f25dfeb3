"""DIST-001 fix: init_process_group() first, then DDP(model); gradients equal.

Each worker runs the entry's own plain-PyTorch snippet, which creates the default group from
torchrun's environment before it wraps the model, on a model that nothing has distributed yet
(the broken run wrapped it with no group at all).  The module does its own launcher plumbing,
since ``launch()`` would create the group before the snippet could: under torchrun the workers
run the snippet as they are; started with plain ``python -m``, the spawned workers export RANK,
WORLD_SIZE and LOCAL_RANK the way torchrun does.
"""

import torch

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_each_step,
    launch_without_group,
)
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="fixed-init-before-ddp",
    description="fix (the entry's snippet): init_process_group() before DDP(model); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("init-first", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    assert names["model"].module is model  # DDP wraps these parameters: theirs are synced
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
