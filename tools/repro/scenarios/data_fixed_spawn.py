"""DATA-005, DATA-004 and DATA-006 fixed: the entries' own snippets, with workers started by spawn
where the failure needed it.

In one rank, one after the other:

1. collate-tensor-size-mismatch's "pad-in-collate": the sequences of lengths 12 and 9 of
   ``data_collate_variable_sizes`` arrive padded to 12, every batch (workers forked, as on Linux).
2. The start method is set to spawn for the rest (as on Windows and macOS).
3. multiprocessing-spawn-pickle's "module-level-callables": the snippet is imported as the
   user's module, so its collate function (a functools.partial of a module-level function)
   pickles by name; every batch arrives, scaled.
4. multiprocessing-spawn-main-guard's "add-main-guard": the snippet is run as ``__main__``; the
   spawned worker imports it again, the guard keeps the loop from running there, and the epoch
   trains.
"""

from tools.repro.data_support import import_as_module, run_as_main
from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.scenarios.data_collate_variable_sizes import Sequences
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="multiprocessing-spawn-pickle",
    variant="fixed-module-level-collate-main-guard-padding",
    description="fixed: padding collate; spawn with a module-level collate_fn and a main guard",
    expect="complete",
    role=FIXED,
    key_text=("padded: 4 batches", "module-level collate: 620.0", "main guard: 4 steps"),
    snippet=("module-level-callables", "pytorch"),
)

HEADER = """
import torch

from tools.repro.scenarios.data_fixed_spawn import CountingLoss, Squares

dataset = Squares()
batch_size = 4
model = CountingLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
"""


class Squares:
    def __len__(self):
        return 16

    def __getitem__(self, index):
        import torch

        return torch.tensor([float(index) ** 2])


class CountingLoss:
    """Stands for the user's model: returns a loss, and counts the batches it saw."""

    def __init__(self):
        import torch

        self.weight = torch.nn.Parameter(torch.ones(1))
        self.shapes = []

    def parameters(self):
        return [self.weight]

    def __call__(self, batch):
        self.shapes.append(tuple(batch.shape))
        return (batch.float() * self.weight).pow(2).mean()


def main(rank, world_size):
    import torch
    import torch.multiprocessing as mp

    model = CountingLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    code = fix_snippet("collate-tensor-size-mismatch", "pad-in-collate", loader_num_workers="1")
    run_snippet(code, dataset=Sequences(), batch_size=4, model=model, optimizer=optimizer)
    assert model.shapes == [(4, 12)] * 4, model.shapes
    print(f"rank {rank}: padded: {len(model.shapes)} batches of {model.shapes[0]}", flush=True)

    mp.set_start_method("spawn", force=True)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    user = import_as_module(
        code,
        "from tools.repro.scenarios.data_fixed_spawn import Squares\n"
        "dataset = Squares()\nbatch_size = 4",
        stem=f"user_loader_{rank}",
    )
    total = sum(batch.sum().item() for batch in user.dataloader)
    assert total == 620.0, total
    print(f"rank {rank}: module-level collate: {total}", flush=True)

    code = fix_snippet("multiprocessing-spawn-main-guard", "add-main-guard", loader_num_workers="1")
    script = run_as_main(code, HEADER)
    assert script["model"].shapes == [(4, 1)] * 4, script["model"].shapes
    print(f"rank {rank}: main guard: {len(script['model'].shapes)} steps", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
