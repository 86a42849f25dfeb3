"""NET: torchrun's c10d rendezvous endpoint is served by nobody.

A node that is not the rendezvous host (``--rdzv-conf is_host=false``, as on every node but
the one named by ``--rdzv-endpoint``) starts while the host node is down, or the endpoint names
a host or port where no agent listens. Its TCPStore client times out connecting (the timeout is
shortened with ``read_timeout``), retries once, and torchrun fails with "RendezvousConnectionError:
The connection to the C10d store has failed." before any worker starts. Run with plain
``python -m`` (the lab's "spawn" launcher); what is captured is torchrun's own output.
"""

import sys

from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import c10d_node, run_nodes, unused_port

SCENARIO = Scenario(
    slug="rendezvous-connection-error",
    variant="endpoint-not-served",
    description="broken: torchrun --rdzv-endpoint at a port no rendezvous host serves",
    expect="fail",
    role=BROKEN,
    key_text=(
        "RendezvousConnectionError: The connection to the C10d store has failed.",
        "The client socket has timed out after 2000ms while trying to connect to",
    ),
    launchers=("spawn",),
)

if __name__ == "__main__":
    endpoint = f"127.0.0.1:{unused_port()}"
    conf = ("--rdzv-conf", "is_host=false,read_timeout=2")
    # Any training script will do: torchrun fails before starting it.
    module = "tools.repro.scenarios.net_rdzv_fixed_host_reachable"
    sys.exit(run_nodes(c10d_node(endpoint, "2", module, *conf), []))
