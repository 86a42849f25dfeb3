"""NET: torchrun's --rdzv-endpoint names a port where something else listens.

Another program (a service, another job's process) owns the endpoint's port: it accepts the
connection and closes it at once, so the joining node's TCPStore client reads "Connection reset
by peer" and "Broken pipe" on each retry until its (shortened) timeout, and torchrun fails with
RendezvousConnectionError before any worker starts. Run with plain ``python -m`` (the lab's
"spawn" launcher); what is captured is torchrun's own output.
"""

import socket
import sys
import threading

from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import c10d_node, run_nodes

SCENARIO = Scenario(
    slug="rendezvous-connection-error",
    variant="endpoint-port-not-a-store",
    description="broken: --rdzv-endpoint at a port another program owns, which drops connections",
    expect="fail",
    role=BROKEN,
    key_text=(
        "RendezvousConnectionError: The connection to the C10d store has failed.",
        "TCP client failed to connect/validate to host",
    ),
    launchers=("spawn",),
)


def other_program(server):
    while True:
        connection, _ = server.accept()
        connection.close()  # not a TCPStore: hang up on every client


if __name__ == "__main__":
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen()
    threading.Thread(target=other_program, args=(server,), daemon=True).start()
    endpoint = f"127.0.0.1:{server.getsockname()[1]}"
    conf = ("--rdzv-conf", "is_host=false,read_timeout=2")
    module = "tools.repro.scenarios.net_rdzv_fixed_host_reachable"  # never started
    sys.exit(run_nodes(c10d_node(endpoint, "2", module, *conf), []))
