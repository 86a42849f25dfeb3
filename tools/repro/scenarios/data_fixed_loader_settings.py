"""DATA-001 and DATA-003 fixed: the entries' own snippets under the limits that broke them.

In one rank, one after the other (each limit stays once set, so the order matters):

1. dataloader-shared-memory's "fewer-batches-in-flight": the same 16 MiB tmpfs over /dev/shm and
   4 MiB batches as ``data_shm_small_tmpfs``; one worker with prefetch_factor=1 keeps at most a
   batch or two in shared memory, and the epoch trains.
2. dataloader-too-many-open-files's "file-system-sharing-strategy" with the file_system
   strategy: the same batches of 32 tensors as ``data_too_many_open_files``, all kept, under an
   open-file limit 64 above what the rank had open (hard limit too, so only the strategy can
   help); every batch arrives.
"""

from tools.repro.data_support import MIB, limit_open_files, private_shm
from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.scenarios.data_shm_small_tmpfs import SHM_SIZE, Frames
from tools.repro.scenarios.data_too_many_open_files import HEADROOM, ManyTensors
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="fixed-fewer-batches-in-flight-and-file-system-strategy",
    description="fixed: one worker, prefetch_factor=1 in the small /dev/shm; file_system strategy",
    expect="complete",
    role=FIXED,
    key_text=("shared memory: 16 steps", "open files: 32 batches kept"),
    snippet=("fewer-batches-in-flight", "pytorch"),
)


class KeepingLoss:
    """Stands for the user's model and loop: returns a loss, counts the steps and, when asked,
    keeps every batch it saw (as a loop that stores its inputs)."""

    def __init__(self, keep):
        import torch

        self.weight = torch.nn.Parameter(torch.ones(1))
        self.keep, self.kept, self.steps = keep, [], 0

    def parameters(self):
        return [self.weight]

    def __call__(self, batch):
        self.steps += 1
        if self.keep:
            self.kept.append(batch)
        tensors = batch if isinstance(batch, list) else [batch]
        return sum((t * self.weight).pow(2).mean() for t in tensors)


def main(rank, world_size):
    import torch

    assert SHM_SIZE == 16 * MIB
    private_shm(SHM_SIZE)
    model = KeepingLoss(keep=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    run_snippet(code, dataset=Frames(), batch_size=4, model=model, optimizer=optimizer)
    assert model.steps == 16, model.steps
    print(f"rank {rank}: shared memory: {model.steps} steps in a 16 MiB /dev/shm", flush=True)

    model = KeepingLoss(keep=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    limit_open_files(HEADROOM)
    code = fix_snippet(
        "dataloader-too-many-open-files",
        "file-system-sharing-strategy",
        loader_sharing_strategy="file_system",
        loader_num_workers="1",
    )
    run_snippet(code, dataset=ManyTensors(), batch_size=2, model=model, optimizer=optimizer)
    assert len(model.kept) == 32, len(model.kept)
    print(f"rank {rank}: open files: {len(model.kept)} batches kept", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
