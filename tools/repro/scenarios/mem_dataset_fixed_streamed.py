"""MEM-007 fixed: the same dataset, read one batch at a time, trains within the same limit.

As ``mem_dataset_materialised_in_ram``: a 192 MiB map-style dataset and an address-space limit
128 MiB above what the worker mapped before. The entry's snippet (a DistributedSampler and a
DataLoader with two workers) reads each rank's half of the samples a batch at a time, so an
epoch of training completes; gradients are checked equal across ranks before every step.
"""

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.mem_support import MIB, limit_address_space
from tools.repro.scenarios.mem_dataset_materialised_in_ram import Images
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="fixed-dataset-streamed",
    description="fixed: a DataLoader over the same dataset trains an epoch under the same limit",
    expect="complete",
    role=FIXED,
    key_text=("epoch done within the limit",),
    snippet=("stream-the-dataset", "pytorch"),
    fresh_processes=True,
)

HEADROOM = 128 * MIB


class Regressor:
    """Stands for the user's model: takes a batch of images, returns the loss."""

    def __init__(self):
        import torch.nn as nn
        from torch.nn.parallel import DistributedDataParallel as DDP

        self.ddp = DDP(nn.Linear(3 * 128 * 128, 1))

    def __call__(self, batch):
        return self.ddp(batch.flatten(1)).pow(2).mean()


def main(rank, world_size):
    import torch

    torch.manual_seed(0)
    dataset = Images()
    model = Regressor()
    # A small rate: the inputs have 49152 features, a larger one diverges to NaN.
    optimizer = torch.optim.SGD(model.ddp.parameters(), lr=1e-6)
    steps = check_each_step(optimizer, model.ddp.module)
    limit_address_space(HEADROOM)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, device_batch_size="16")
    run_snippet(code, dataset=dataset, model=model, optimizer=optimizer, epochs=1)
    assert len(steps) == len(dataset) // world_size // 16, f"{len(steps)} steps"
    print(f"rank {rank}: epoch done within the limit, {len(steps)} steps", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
