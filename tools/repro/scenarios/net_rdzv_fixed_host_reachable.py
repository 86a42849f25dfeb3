"""NET fix for a rendezvous connection error: the endpoint names the host node, and it is up.

Two torchrun agents stand for two nodes: the first is the rendezvous host (its
``--rdzv-endpoint`` address is its own, so it serves the store), the second joins it with
``is_host=false``. Both point at the same reachable endpoint, so the rendezvous completes and
each worker runs the entry's plain-PyTorch snippet (init_process_group from torchrun's
environment, DDP, 3 steps with equal gradients). Run with plain ``python -m`` (the lab's
"spawn" launcher); under the agents this module is the worker.
"""

import os
import sys

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
    started_by_torchrun,
)
from tools.repro.net_support import c10d_node, run_nodes
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="rendezvous-connection-error",
    variant="fixed-endpoint-served-by-host-node",
    description="fix (the entry's snippet): both nodes use the host node's reachable endpoint",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    launchers=("spawn",),
    snippet=("reachable-rendezvous-endpoint", "pytorch"),
)
MODULE = "tools.repro.scenarios.net_rdzv_fixed_host_reachable"


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model
    assert len(steps) == 3, steps
    print(f"rank {rank} of {world_size}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch_without_group(main, SCENARIO)
    else:
        endpoint = f"127.0.0.1:{os.environ['MASTER_PORT']}"
        host = c10d_node(endpoint, "2", MODULE, "--rdzv-id", "job1")
        joiner = c10d_node(
            endpoint, "2", MODULE, "--rdzv-id", "job1", "--rdzv-conf", "is_host=false"
        )
        sys.exit(run_nodes(host, [joiner]))
