"""DIST-004: a rank cannot reach MASTER_ADDR:MASTER_PORT, nobody is listening.

Only rank 1 is started (rank 0's node never came up, or MASTER_ADDR points at
the wrong host).  Its TCPStore client retries the connection until the
(here shortened) timeout: "The client socket has timed out after 8000ms while
trying to connect to (127.0.0.1, <port>)."
"""

from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, Scenario

SCENARIO = Scenario(
    slug="dist-store-timeout",
    variant="client-cannot-reach-master",
    description="broken: only rank 1 starts; its store client times out connecting",
    expect="fail",
    role=BROKEN,
    key_text=("The client socket has timed out after 8000ms while trying to connect to",),
    pg_timeout_s=8.0,
    launchers=("spawn",),
)


def worker(index, world_size):
    dist.init_process_group(
        "gloo",
        rank=1,  # rank 0, which would host the store, never starts
        world_size=world_size,
        timeout=timedelta(seconds=SCENARIO.pg_timeout_s),
    )
    print("never reached")


if __name__ == "__main__":
    import torch.multiprocessing as mp

    mp.spawn(worker, args=(2,), nprocs=1)
