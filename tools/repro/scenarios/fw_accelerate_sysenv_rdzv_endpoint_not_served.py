"""`accelerate launch` on a node that is not the rendezvous host (machine_rank 1 of 2, c10d,
is_host=false) while nobody serves --main_process_ip:--main_process_port (Accelerate 1.15.0,
torch 2.13.0, CPU): the torchrun agent Accelerate starts cannot reach the store and fails with
"RendezvousConnectionError: The connection to the C10d store has failed." before any worker
starts. Run with plain `python -m` (the lab's "spawn" launcher); what is captured is the
launcher's own output.
"""

import sys

from tools.repro.fw_sysenv_support import accelerate_node
from tools.repro.harness import BROKEN, Scenario
from tools.repro.net_support import run_nodes, unused_port

SCENARIO = Scenario(
    slug="rendezvous-connection-error",
    variant="accelerate-launch-endpoint-not-served",
    description="Accelerate 1.15.0: accelerate launch --machine_rank 1, endpoint nobody serves",
    expect="fail",
    role=BROKEN,
    key_text=(
        "RendezvousConnectionError: The connection to the C10d store has failed.",
        "accelerate/commands/launch.py",
    ),
    launchers=("spawn",),
)

if __name__ == "__main__":
    flags = (
        "--rdzv_backend",
        "c10d",
        "--rdzv_conf",
        "is_host=false,read_timeout=2",
        "--main_process_ip",
        "127.0.0.1",
        "--main_process_port",
        str(unused_port()),
    )
    # Any training script will do: the launcher fails before starting it.
    module = "tools.repro.scenarios.fw_accelerate_sysenv_fixed_rdzv_endpoint_served"
    sys.exit(run_nodes(accelerate_node(module, *flags, rank=1), []))
