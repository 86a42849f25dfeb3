"""MEM-007 fixed: the same job loads the checkpoint memory-mapped, within the same limit.

As ``mem_checkpoint_loaded_by_every_rank``: each worker builds its model (about 130 MiB) and
resumes from a checkpoint of the same size, in a memory cgroup that lets it use 200 MiB more.
It runs the entry's snippet (``torch.load(..., mmap=True)``): the checkpoint's tensors are read
from the page cache while they are copied into the model, so no rank holds a second full copy
and the kernel has no reason to kill anyone. Each rank checks that the weights it loaded are
the saved ones.
"""

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.mem_support import MIB, join_memory_cgroup, scratch_file
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="fixed-checkpoint-memory-mapped",
    description="fixed: torch.load(..., mmap=True) loads the same checkpoint under the same limit",
    expect="complete",
    role=FIXED,
    key_text=("checkpoint loaded, weights equal to the saved ones",),
    snippet=("load-checkpoint-memory-mapped", "pytorch"),
    fresh_processes=True,
)

LIMIT = 200 * MIB


def build_model(seed):
    import torch
    import torch.nn as nn

    torch.manual_seed(seed)
    return nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(8)])  # 134 MB of fp32 weights


def checksum(model):
    return sum(float(p.detach().double().sum()) for p in model.parameters())


def main(rank, world_size):
    import torch
    import torch.distributed as dist

    path = scratch_file("checkpoint.pt")
    if rank == 0:
        saved = build_model(seed=0)
        torch.save(saved.state_dict(), path)
        expected = torch.tensor([checksum(saved)], dtype=torch.float64)
        del saved
    else:
        expected = torch.zeros(1, dtype=torch.float64)
    dist.broadcast(expected, src=0)

    join_memory_cgroup(LIMIT)
    model = build_model(seed=1 + rank)  # different weights until the checkpoint is loaded
    size = path.stat().st_size >> 20
    print(f"rank {rank}: loading checkpoint {path.name} ({size} MiB)", flush=True)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(code, model=model, checkpoint_path=str(path))
    assert checksum(model) == float(expected), "the loaded weights differ from the saved ones"
    print(f"rank {rank}: checkpoint loaded, weights equal to the saved ones", flush=True)
    dist.barrier()
    if rank == 0:
        path.unlink()


if __name__ == "__main__":
    launch(main, SCENARIO)
