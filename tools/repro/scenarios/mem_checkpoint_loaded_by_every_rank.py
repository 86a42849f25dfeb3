"""MEM-007: every rank loads the whole checkpoint into host RAM, and the kernel kills them.

Each worker builds its model (about 130 MiB of weights) and then reads the full checkpoint of
the same size with a plain ``torch.load``: two copies per rank, times the ranks on the host. The
worker runs in a memory cgroup of its own that lets it use 200 MiB more than it held when it
joined (as a container or a Slurm job's memory limit would), so the kernel's out-of-memory
killer ends it with SIGKILL in the middle of ``torch.load``. No Python code runs after that: no
traceback, only the launcher's report (torchrun: ``exitcode: -9`` and ``Signal 9 (SIGKILL)``;
spawn: ``process N terminated with signal SIGKILL``), and ``Memory cgroup out of memory: Killed
process`` in the kernel log. Rank 0 unlinks the checkpoint once both ranks hold it open, so
nothing is left behind.
"""

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.mem_support import MIB, join_memory_cgroup, scratch_file

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="checkpoint-loaded-by-every-rank",
    description="broken: every rank torch.loads the full checkpoint under a 200 MiB cgroup limit",
    expect="fail",
    role=BROKEN,
    key_text=("loading checkpoint", "SIGKILL"),
    fresh_processes=True,
)

LIMIT = 200 * MIB


def build_model():
    import torch.nn as nn

    return nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(8)])  # 134 MB of fp32 weights


def save_checkpoint(rank):
    """Rank 0 writes the checkpoint the job resumes from, before any limit applies."""
    import torch
    import torch.distributed as dist

    path = scratch_file("checkpoint.pt")
    if rank == 0:
        torch.save(build_model().state_dict(), path)
    dist.barrier()
    return path


def main(rank, world_size):
    import torch
    import torch.distributed as dist

    path = save_checkpoint(rank)
    join_memory_cgroup(LIMIT)
    model = build_model()
    size = path.stat().st_size >> 20
    print(f"rank {rank}: loading checkpoint {path.name} ({size} MiB)", flush=True)
    with open(path, "rb") as f:
        dist.barrier()  # both ranks hold the file open: it can go, however they end
        if rank == 0:
            path.unlink()
        state = torch.load(f, map_location="cpu")  # a full copy in this rank's memory
    model.load_state_dict(state)
    print(f"rank {rank}: checkpoint loaded", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
