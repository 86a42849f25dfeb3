"""MEM-007: every rank materialises the whole dataset in host memory, and the allocation fails.

The script "caches the dataset for speed": each rank stacks every sample of a map-style dataset
(192 MiB of decoded images in all) into one tensor before training. The worker runs with an
address-space limit (RLIMIT_AS, as ``ulimit -v`` or a host without overcommit) 128 MiB above
what it mapped before, so the allocation fails inside PyTorch's CPU allocator:
``DefaultCPUAllocator: can't allocate memory: you tried to allocate N bytes. Error code 12``.
Unlike the kernel's SIGKILL, this leaves a traceback pointing at the line that built the copy.
"""

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.mem_support import MIB, limit_address_space

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="dataset-materialised-in-ram",
    description="broken: each rank stacks the whole 192 MiB dataset under an address-space limit",
    expect="fail",
    role=BROKEN,
    key_text=("DefaultCPUAllocator: can't allocate memory: you tried to allocate",),
    fresh_processes=True,
)

HEADROOM = 128 * MIB


class Images:
    """A map-style dataset: sample i is decoded (here: drawn) when it is asked for."""

    def __init__(self, count=1024, shape=(3, 128, 128)):
        self.count, self.shape = count, shape

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        import torch

        generator = torch.Generator().manual_seed(index)
        return torch.rand(self.shape, generator=generator)


def main(rank, world_size):
    import torch

    dataset = Images()
    limit_address_space(HEADROOM)
    print(f"rank {rank}: caching {len(dataset)} samples in memory", flush=True)
    cached = torch.stack([dataset[i] for i in range(len(dataset))])  # every sample, every rank
    print(f"rank {rank}: cached {tuple(cached.shape)}", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
