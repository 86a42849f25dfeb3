"""DIST-002 fix: initialise only when no default group exists yet.

``launch()`` has already initialised the default gloo group (as a launcher helper or a framework
such as Accelerate or Lightning would); the entry's own plain-PyTorch snippet guards its setup
with ``dist.is_initialized()``, so it reuses that group, and its training loop runs with equal
gradients across ranks.
"""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="fixed-guard-is-initialized",
    description="fix (the entry's snippet): init_process_group() only if not initialised",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    snippet=("init-once", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
