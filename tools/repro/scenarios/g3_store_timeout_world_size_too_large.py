"""DIST-004: WORLD_SIZE says 2 but only rank 0 was started; its store times out.

``torch.multiprocessing.spawn`` starts one process while ``world_size=2`` is
passed to init_process_group (nprocs and world size disagree, as when a node
of a multi-node job never starts).  Rank 0's TCPStore server waits for the
missing client and gives up after the (here shortened) timeout: "Timed out
after N seconds waiting for clients. 1/2 clients joined."
"""

from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, Scenario

SCENARIO = Scenario(
    slug="dist-store-timeout",
    variant="world-size-larger-than-processes",
    description="broken: 1 process started, world_size=2; rank 0's store times out",
    expect="fail",
    role=BROKEN,
    key_text=("waiting for clients. 1/2 clients joined.",),
    pg_timeout_s=8.0,
    launchers=("spawn",),
)


def worker(index, world_size):
    dist.init_process_group(
        "gloo",
        rank=index,
        world_size=world_size,
        timeout=timedelta(seconds=SCENARIO.pg_timeout_s),
    )
    print("never reached")


if __name__ == "__main__":
    import torch.multiprocessing as mp

    mp.spawn(worker, args=(2,), nprocs=1)  # one process for a world of two
