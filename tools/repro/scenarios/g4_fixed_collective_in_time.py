"""Fix: every rank reaches the collective, within a timeout sized for the slowest rank.

The rank-local work stays, but the timeout passed to init_process_group covers
it (here 30 s for 2 s of work); in real jobs move long rank-0-only work out of
the collective sequence or raise the timeout with timedelta(minutes=...).
"""

import time

import torch
import torch.distributed as dist

from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="fixed-timeout-covers-slow-rank",
    description="fix: both ranks all_reduce, timeout longer than the slow rank's work",
    expect="complete",
    role=FIXED,
    pg_timeout_s=30.0,
    key_text=("metric [2.0, 2.0, 2.0, 2.0]",),
)


def main(rank, world_size):
    metric = torch.ones(4)
    if rank == 1:
        time.sleep(2)
    dist.all_reduce(metric)
    if rank == 0:
        print(f"metric {metric.tolist()}")


if __name__ == "__main__":
    launch(main, SCENARIO)
