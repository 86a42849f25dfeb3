"""NET fix for a rendezvous timeout on a single machine: ``torchrun --standalone``.

The broken run asked for ``--nnodes 2`` and only one node ever started. A job that really runs
on one machine says so: ``torchrun --standalone --nproc-per-node 2`` (one node, a local
rendezvous on a free port), so nothing waits for a second node. Each worker runs the entry's
plain-PyTorch snippet (init_process_group from torchrun's environment, DDP, 3 steps with equal
gradients). Run with plain ``python -m`` (the lab's "spawn" launcher); under torchrun this
module is the worker.
"""

import sys

from tools.repro.harness import (
    FIXED,
    WORLD_SIZE,
    Scenario,
    launch_without_group,
    started_by_torchrun,
)
from tools.repro.net_support import run_nodes, torchrun_executable
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="rendezvous-timeout",
    variant="fixed-standalone-single-node",
    description="fix (the entry's snippet): torchrun --standalone for a one-machine job",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    launchers=("spawn",),
    snippet=("nodes-that-will-start", "pytorch"),
)
MODULE = "tools.repro.scenarios.net_rdzv_fixed_standalone"


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"world of {world_size}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch_without_group(main, SCENARIO)
    else:
        command = [torchrun_executable(), "--standalone", "--nproc-per-node", str(WORLD_SIZE)]
        sys.exit(run_nodes([*command, "-m", MODULE], []))
