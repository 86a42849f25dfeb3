"""NET: a two-node torchrun job where only one node ever starts.

``torchrun --nnodes 2 --rdzv-backend c10d`` hosts the rendezvous and waits for a second node
that never comes; after ``join_timeout`` (600 s by default, 5 s here) it raises
RendezvousTimeoutError, with an empty message, before any worker starts. Run with plain
``python -m`` (the lab's "spawn" launcher); what is captured is torchrun's own output.
"""

import os
import sys

from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import c10d_node, run_nodes

SCENARIO = Scenario(
    slug="rendezvous-timeout",
    variant="second-node-never-started",
    description="broken: torchrun --nnodes 2 with one node started and join_timeout=5",
    expect="fail",
    role=BROKEN,
    key_text=("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",),
    launchers=("spawn",),
)

if __name__ == "__main__":
    endpoint = f"127.0.0.1:{os.environ['MASTER_PORT']}"
    module = "tools.repro.scenarios.net_rdzv_fixed_host_reachable"  # never started
    sys.exit(run_nodes(c10d_node(endpoint, "2", module, "--rdzv-conf", "join_timeout=5"), []))
