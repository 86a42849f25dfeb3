"""DIST-005: torchrun started with --master-port on a port another process holds.

The commonest form: a second torchrun job on the same host with the default
port, or a restart while the previous job still owns it.  This module (run
with plain ``python -m``, the lab's "spawn" launcher) opens a listening socket
on MASTER_PORT to stand for that other job and then runs a real
``torchrun --master-port <that port>``; what is captured is torchrun's own
output.  torchrun's rendezvous store fails to listen before any worker starts.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario

SCENARIO = Scenario(
    slug="dist-address-in-use",
    variant="torchrun-master-port-busy",
    description="broken: torchrun --master-port P while another process listens on P",
    expect="fail",
    role=BROKEN,
    key_text=(
        "The server socket has failed to listen on any local network address.",
        "name: EADDRINUSE, message: address already in use",
    ),
    launchers=("spawn",),
)


def torchrun_command(port, module):
    torchrun = Path(sys.executable).with_name("torchrun")
    return [
        str(torchrun) if torchrun.exists() else "torchrun",
        "--nproc-per-node",
        str(WORLD_SIZE),
        "--master-addr",
        "127.0.0.1",
        "--master-port",
        str(port),
        "-m",
        module,
    ]


if __name__ == "__main__":
    port = int(os.environ["MASTER_PORT"])
    other_job = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other_job.bind(("", port))
    other_job.listen()
    # Any training script will do: torchrun fails before starting it.
    returncode = subprocess.call(
        torchrun_command(port, "tools.repro.scenarios.g3_address_in_use_fixed_free_port"),
        timeout=60,
    )
    sys.exit(returncode)
