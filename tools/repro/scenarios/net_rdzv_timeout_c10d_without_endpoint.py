"""NET: torchrun --rdzv-backend c10d given --master-addr/--master-port instead of --rdzv-endpoint.

With the c10d backend torchrun ignores --master-addr and --master-port (it warns "master_addr is
only used for static rdzv_backend and when rdzv_endpoint is not specified") and, with no
--rdzv-endpoint, every node hosts its own rendezvous on localhost:29400. On a cluster each node
then waits alone for the others until join_timeout and raises RendezvousTimeoutError. One agent
shows what each node prints (two agents on one machine would find each other on localhost, which
is exactly what separate nodes cannot do); join_timeout is shortened to 5 s. Run with plain
``python -m`` (the lab's "spawn" launcher); what is captured is torchrun's own output.
"""

import os
import sys

from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import run_nodes, torchrun_executable

SCENARIO = Scenario(
    slug="rendezvous-timeout",
    variant="c10d-with-master-addr-no-endpoint",
    description="broken: --rdzv-backend c10d with --master-addr and no --rdzv-endpoint, 2 nodes",
    expect="fail",
    role=BROKEN,
    key_text=(
        "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified.",
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
    ),
    launchers=("spawn",),
)

if __name__ == "__main__":
    command = [
        torchrun_executable(),
        "--nnodes",
        "2",
        "--nproc-per-node",
        "1",
        "--rdzv-backend",
        "c10d",
        "--master-addr",
        "127.0.0.1",
        "--master-port",
        os.environ["MASTER_PORT"],
        "--rdzv-conf",
        "join_timeout=5",
        "-m",
        "tools.repro.scenarios.net_rdzv_fixed_standalone",  # never started
    ]
    sys.exit(run_nodes(command, []))
