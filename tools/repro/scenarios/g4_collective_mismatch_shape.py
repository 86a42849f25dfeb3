"""Same collective, different tensor shapes per rank; TORCH_DISTRIBUTED_DEBUG=DETAIL on."""

import torch
import torch.distributed as dist

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="all-reduce-shape-differs",
    description="DETAIL: all_reduce of 4 elements on rank 0, 5 on rank 1; the check raises",
    expect="fail",
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    pg_timeout_s=10.0,
    key_text=("Detected mismatch between collectives on ranks.",),
)


def main(rank, world_size):
    t = torch.ones(4 if rank == 0 else 5)  # e.g. a per-rank batch statistic of varying size
    dist.all_reduce(t)


if __name__ == "__main__":
    launch(main, SCENARIO)
