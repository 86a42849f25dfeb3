"""Fix, in Accelerate: the entry's own snippet's command, the same on both nodes but
--machine_rank, with the host node's reachable address and port (two `accelerate launch`
agents on 127.0.0.1, c10d, the second with is_host=false as on another machine): the
rendezvous completes and each worker runs the snippet (Accelerator(), prepare()), rendered as
the wizard renders it, then the script's loop, with gradients equal across ranks at every
optimizer step. Run with plain `python -m` (the lab's "spawn" launcher); under the agents
this module is the worker.
"""

import os
import sys

from tools.repro.accelerate_support import accelerate_snippet_fix
from tools.repro.fw_sysenv_support import accelerate_node
from tools.repro.harness import FIXED, Scenario, launch_without_group, started_by_torchrun
from tools.repro.net_support import run_nodes

SCENARIO = Scenario(
    slug="rendezvous-connection-error",
    variant="accelerate-fixed-endpoint-served-by-host-node",
    description="fix in Accelerate 1.15.0: both nodes name the host node's reachable endpoint",
    expect="complete",
    role=FIXED,
    key_text=("trained on its node, gradients equal across ranks",),
    launchers=("spawn",),
    snippet=("reachable-rendezvous-endpoint", "accelerate"),
    preload=("accelerate",),
)
MODULE = "tools.repro.scenarios.fw_accelerate_sysenv_fixed_rdzv_endpoint_served"


def main(rank, world_size):
    accelerate_snippet_fix(SCENARIO)(rank, world_size)
    # The rendezvous, not the node, gives the ranks: the shown node's worker may be rank 1.
    print(f"rank {rank} of {world_size}: trained on its node, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch_without_group(main, SCENARIO)
    else:
        flags = (
            "--rdzv_backend",
            "c10d",
            "--main_process_ip",
            "127.0.0.1",
            "--main_process_port",
            os.environ["MASTER_PORT"],
        )
        host = accelerate_node(MODULE, *flags, rank=0)
        joiner = accelerate_node(MODULE, *flags, "--rdzv_conf", "is_host=false", rank=1)
        sys.exit(run_nodes(host, [joiner]))
