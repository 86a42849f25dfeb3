"""Fix: every rank issues the same collectives, same order, same shapes (DETAIL stays on)."""

import torch
import torch.distributed as dist

from tools.repro.harness import FIXED, Scenario, launch

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="fixed-same-collectives-on-every-rank",
    description="fix: all_reduce on both ranks with equal shapes, DETAIL on; completes",
    expect="complete",
    role=FIXED,
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    pg_timeout_s=10.0,
    key_text=("collectives agree",),
)


def main(rank, world_size):
    t = torch.ones(4)
    dist.all_reduce(t)
    dist.broadcast(t, src=0)
    if rank == 0:
        print(f"collectives agree: {t.tolist()}")


if __name__ == "__main__":
    launch(main, SCENARIO)
