"""DATA-002 (was MEM-007): a DataLoader worker keeps every sample it reads; the kernel kills it.

The dataset "caches" each sample it decodes so that later epochs are faster; the DataLoader's
worker process keeps that cache in its own memory (one cache per worker, on every rank). The
rank and its worker run in a memory cgroup that lets them use 256 MiB more than the rank held
when it joined (a container's or a job's limit), and the cache grows past it within the first
epoch: the kernel's out-of-memory killer ends the worker, the largest process there, with
SIGKILL, and the rank's DataLoader reports "DataLoader worker (pid N) is killed by signal:
Killed." before "DataLoader worker (pid(s) N) exited unexpectedly".
"""

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.mem_support import MIB, join_memory_cgroup, prefer_this_process_when_out_of_memory

SCENARIO = Scenario(
    slug="dataloader-worker-killed",
    variant="dataloader-workers-keep-samples",
    description="broken: the DataLoader worker caches every sample under a 256 MiB cgroup limit",
    expect="fail",
    role=BROKEN,
    # "is killed by signal: Killed" (the loop's SIGCHLD handler) or, when its read of the
    # worker's queue fails first, "exited unexpectedly": the test takes either.
    key_text=("DataLoader worker (pid",),
    fresh_processes=True,
)

LIMIT = 256 * MIB


class CachingImages:
    """Keeps every sample it has produced, in whichever process produced it."""

    def __init__(self, count=2048, shape=(3, 256, 256)):
        self.count, self.shape, self.cache = count, shape, {}

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        import torch

        if not self.cache and torch.utils.data.get_worker_info() is not None:
            prefer_this_process_when_out_of_memory()
        if index not in self.cache:
            generator = torch.Generator().manual_seed(index)
            self.cache[index] = torch.rand(self.shape, generator=generator)
        return self.cache[index]


def main(rank, world_size):
    from torch.utils.data import DataLoader, DistributedSampler

    dataset = CachingImages()
    join_memory_cgroup(LIMIT)
    loader = DataLoader(dataset, batch_size=16, sampler=DistributedSampler(dataset), num_workers=1)
    print(f"rank {rank}: epoch 0, {len(loader)} batches", flush=True)
    for step, _ in enumerate(loader):
        if step % 10 == 0:
            print(f"rank {rank}: step {step}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
