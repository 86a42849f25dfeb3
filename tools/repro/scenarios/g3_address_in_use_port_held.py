"""DIST-005: rank 0 cannot listen on MASTER_PORT because something already holds it.

Each worker initialises with ``init_method="tcp://127.0.0.1:<MASTER_PORT>"``,
so rank 0 starts a TCPStore server on that port.  The parent first opens a
listening socket on MASTER_PORT, standing in for an earlier job (or a stale
process) that still owns the port, then spawns the workers.  Rank 0 fails
with DistNetworkError "The server socket has failed to listen on any local
network address. ... EADDRINUSE".

Spawn only: under torchrun (2.13.0) the same tcp:// init on torchrun's own
MASTER_PORT does NOT collide -- the workers reuse the agent's store
(TORCHELASTIC_USE_AGENT_STORE) and initialise fine; see the
``torchrun-master-port-busy`` variant for torchrun's form of this failure.
"""

import os
import socket
from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario, started_by_torchrun

SCENARIO = Scenario(
    slug="dist-address-in-use",
    variant="tcp-init-on-a-port-already-held",
    description="broken: rank 0's store cannot listen on MASTER_PORT (held by another listener)",
    expect="fail",
    role=BROKEN,
    key_text=(
        "The server socket has failed to listen on any local network address.",
        "name: EADDRINUSE, message: address already in use",
    ),
    pg_timeout_s=8.0,
    launchers=("spawn",),
)


def worker(rank, world_size):
    port = os.environ["MASTER_PORT"]
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world_size,
        timeout=timedelta(seconds=SCENARIO.pg_timeout_s),
    )
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    if started_by_torchrun():
        worker(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:
        import torch.multiprocessing as mp

        stale = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        stale.bind(("", int(os.environ["MASTER_PORT"])))  # the "previous job" holds the port
        stale.listen()
        mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
