"""DIST-003 fix: pass rank and world size to init_process_group, with the address exported.

Each worker runs the entry's own plain-PyTorch snippet: its ``worker(rank, world_size)`` hands
both to ``init_process_group`` instead of leaving env:// to find a RANK that plain ``python``
never set (the broken run), then trains with equal gradients.  Started with plain ``python -m``
(the lab's "spawn" launcher), this module stands in for the snippet's ``if __name__ ==
"__main__":`` block, which ``mp.spawn`` cannot start from a snippet run by exec (it pickles
``worker`` by name from the script's ``__main__``): it exports MASTER_ADDR and MASTER_PORT
(the lab already has) and spawns the workers.  Under torchrun each worker calls the snippet's
``worker`` with the rank and world size torchrun gives it.
"""

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="dist-env-rendezvous-missing-var",
    variant="fixed-torchrun-or-explicit-env",
    description="fix (the entry's snippet): rank and world size passed, MASTER_ADDR/PORT set",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("provide-rendezvous-env", "pytorch"),
)


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    names["worker"](rank, world_size)
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO, ranks_in_env=False)
