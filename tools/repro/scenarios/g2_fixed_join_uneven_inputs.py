"""Fix: the entry's snippet, its loop under Join([model]), on ranks with 2 and 4 batches.

A rank that has finished joins: it keeps answering the all-reduces of the
ranks that still have batches (with zero gradients), so nobody waits, and on
leaving Join DDP copies the last joiner's parameters to every rank.
"""

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.models import MLPLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    variant="fixed-join",
    description="fix (the entry's snippet): rank 0 has 2 batches, rank 1 has 4, Join; completes",
    expect="complete",
    role=FIXED,
    key_text=("all ranks done, parameters equal across ranks",),
    pg_timeout_s=8.0,
    snippet=("join-uneven-inputs", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(MLPLoss())
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(2 if rank == 0 else 4)]  # uneven shards
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    optimizer = run_snippet(code, model=model, dataloader=batches)["optimizer"]
    # Every rank stepped once per batch of its own, the longer one through the all-reduces
    # its joined peer shadowed.
    steps = {int(state["step"]) for state in optimizer.state.values()}
    assert steps == {len(batches)}, steps
    local = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    gathered = [torch.empty_like(local) for _ in range(world_size)]
    dist.all_gather(gathered, local)
    assert all(torch.equal(gathered[0], g) for g in gathered[1:]), "parameters differ"
    print(f"rank {rank}: {len(batches)} batches, all ranks done, parameters equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
