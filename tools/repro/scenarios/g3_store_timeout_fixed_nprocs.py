"""DIST-004 fix: start exactly world_size processes, all pointing at rank 0.

Each worker runs the entry's own plain-PyTorch snippet, which takes its rank and the world size
from the launcher's RANK and WORLD_SIZE instead of hard-coding them (the broken run said 2 for a
single process, and rank 0's store timed out waiting), so every rank joins the store and trains
with equal gradients.  The module does its own launcher plumbing, since ``launch()`` would
create the group before the snippet could: under torchrun the workers run the snippet as they
are; started with plain ``python -m``, each spawned worker exports its rank and the number of
processes started (nprocs) the way torchrun does.
"""

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="dist-store-timeout",
    variant="fixed-world-size-matches-processes",
    description="fix (the entry's snippet): world size from WORLD_SIZE, the processes started",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("match-world-and-endpoint", "pytorch"),
)


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model  # DDP wraps these parameters: theirs are synced
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"world of {world_size}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
