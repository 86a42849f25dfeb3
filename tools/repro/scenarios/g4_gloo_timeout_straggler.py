"""Rank 1 does slow rank-local work (e.g. writing a checkpoint) while rank 0 all_reduces.

Rank 0 waits in the collective until the process-group timeout (6 s here, 30 min
by default for gloo) and raises; when rank 1 finally arrives, its peer is gone.
"""

import time

import torch
import torch.distributed as dist

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="rank-1-late-for-all-reduce",
    description="rank 1 sleeps past the 6 s timeout while rank 0 waits in all_reduce",
    expect="fail",
    pg_timeout_s=6.0,
    key_text=("Timed out waiting 6000ms for",),
)


def main(rank, world_size):
    metric = torch.ones(4)
    if rank == 1:
        time.sleep(10)  # rank-local work longer than the process-group timeout
    dist.all_reduce(metric)
    print(f"rank {rank}: metric {metric.tolist()}")


if __name__ == "__main__":
    launch(main, SCENARIO)
