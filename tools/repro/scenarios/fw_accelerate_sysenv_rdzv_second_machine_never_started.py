"""`accelerate launch --num_machines 2` (c10d rendezvous, Accelerate 1.15.0, torch 2.13.0, CPU)
where only this node ever starts: the torchrun agent Accelerate starts hosts the rendezvous and
waits for the second node; after join_timeout (600 s by default, 5 s here) it fails with
RendezvousTimeoutError before any worker starts. Run with plain `python -m` (the lab's "spawn"
launcher); what is captured is the launcher's own output.
"""

import os
import sys

from tools.repro.fw_sysenv_support import accelerate_node
from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import run_nodes

SCENARIO = Scenario(
    slug="rendezvous-timeout",
    variant="accelerate-launch-second-machine-never-started",
    description="Accelerate 1.15.0: accelerate launch --num_machines 2, one machine started",
    expect="fail",
    role=BROKEN,
    key_text=(
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        "accelerate/commands/launch.py",
    ),
    launchers=("spawn",),
)

if __name__ == "__main__":
    flags = (
        "--rdzv_backend",
        "c10d",
        "--rdzv_conf",
        "join_timeout=5",
        "--main_process_ip",
        "127.0.0.1",
        "--main_process_port",
        os.environ["MASTER_PORT"],
    )
    # Any training script will do: the launcher fails before starting it.
    module = "tools.repro.scenarios.fw_accelerate_sysenv_fixed_rdzv_endpoint_served"
    sys.exit(run_nodes(accelerate_node(module, *flags), []))
