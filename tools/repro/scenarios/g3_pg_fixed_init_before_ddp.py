"""DIST-001 fix: init_process_group() first, then DDP(model); gradients equal.

Each worker runs the entry's own plain-PyTorch snippet, which creates the default group from
torchrun's environment before it wraps the model, on a model that nothing has distributed yet
(the broken run wrapped it with no group at all).  The module does its own launcher plumbing,
since ``launch()`` would create the group before the snippet could: under torchrun the workers
run the snippet as they are; started with plain ``python -m``, the spawned workers export RANK,
WORLD_SIZE and LOCAL_RANK the way torchrun does.
"""

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)
from tools.repro.snippets import run_fix_on_linear_model

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
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model  # DDP wraps these parameters: theirs are synced
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
