"""NET: the rank that serves the store (rank 0) crashes; another rank's store request fails.

Two processes started with plain ``python`` and the env:// variables, as a cluster scheduler
starts them (no launcher watches them both). Rank 0 hosts the TCPStore in its own process and
fails before creating a second process group; rank 1, creating that group, asks the store for
rank 0's address and gets "Failed to recv, got 0 bytes. Connection was likely closed. Did the
remote server shutdown or crash?" (the CPU analogue of NCCL's "retrieving ncclUniqueId from [0]
... got error: Connection reset by peer"). Only rank 1's output is captured.
"""

import os
import subprocess
import sys

import torch
import torch.distributed as dist

from tools.repro.harness import BROKEN, Scenario, exit_worker
from tools.repro.net_support import RUN_TIMEOUT_S

SCENARIO = Scenario(
    slug="dist-connection-reset-by-peer",
    variant="store-host-crashed",
    description="broken: rank 0 (the store's host) dies; rank 1's new_group loses the store",
    expect="fail",
    role=BROKEN,
    key_text=("Failed to recv, got 0 bytes. Connection was likely closed.",),
    launchers=("spawn",),
)
MODULE = "tools.repro.scenarios.net_conn_closed_store_host_crashed"


def worker():
    torch.set_num_threads(1)
    dist.init_process_group("gloo")  # env://: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
    if dist.get_rank() == 0:
        raise RuntimeError("rank 0: could not read the dataset index")  # stands for any crash
    dist.new_group([0, 1])  # needs rank 0's store to exchange the group's addresses
    exit_worker()


if __name__ == "__main__":
    if "RANK" in os.environ:
        worker()
    else:
        env = dict(os.environ, WORLD_SIZE="2")
        command = [sys.executable, "-m", MODULE]
        rank0 = subprocess.Popen(
            command, env=dict(env, RANK="0"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            code = subprocess.call(command, env=dict(env, RANK="1"), timeout=RUN_TIMEOUT_S)
        finally:
            rank0.wait(timeout=RUN_TIMEOUT_S)
        sys.exit(code)
