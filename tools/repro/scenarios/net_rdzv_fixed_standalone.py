"""NET fix for a rendezvous timeout on a single machine: ``torchrun --standalone``.

The broken run asked for ``--nnodes 2`` and only one node ever started. A job that really runs
on one machine says so: ``torchrun --standalone --nproc-per-node 2`` (one node, a local
rendezvous on a free port), so nothing waits for a second node. Each worker runs the entry's
plain-PyTorch snippet (init_process_group from torchrun's environment, DDP, 3 steps with equal
gradients). Run with plain ``python -m`` (the lab's "spawn" launcher); under torchrun this
module is the worker.
"""

import sys

import torch

from tools.repro.harness import (
    FIXED,
    WORLD_SIZE,
    Scenario,
    check_each_step,
    launch_without_group,
    started_by_torchrun,
)
from tools.repro.models import LinearLoss
from tools.repro.net_support import run_nodes, torchrun_executable
from tools.repro.snippets import fix_snippet, run_snippet

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
    torch.manual_seed(0)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
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
