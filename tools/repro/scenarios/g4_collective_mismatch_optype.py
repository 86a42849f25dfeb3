"""Ranks issue different collectives at the same point; TORCH_DISTRIBUTED_DEBUG=DETAIL on.

DETAIL wraps the process group so that every collective first compares a
fingerprint (op type, shapes, dtypes) across ranks: instead of a hang until the
timeout, both ranks fail at once naming the two collectives.
"""

import torch
import torch.distributed as dist

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="all-reduce-vs-broadcast",
    description="DETAIL: rank 0 all_reduce, rank 1 broadcast; the fingerprint check raises",
    expect="fail",
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    pg_timeout_s=10.0,
    key_text=("Detected mismatch between collectives on ranks.",),
)


def main(rank, world_size):
    t = torch.ones(4)
    if rank == 0:
        dist.all_reduce(t)
    else:
        dist.broadcast(t, src=0)


if __name__ == "__main__":
    launch(main, SCENARIO)
