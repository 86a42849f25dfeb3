"""CUDA-001 fix: check the labels against num_classes before the step.

Each worker runs the entry's own plain-PyTorch snippet twice.  With labels in [0, num_classes)
it trains 3 steps; with a batch holding label 5 of 5 classes (the bug that makes the GPU kernel
assert) it stops before the loss with a ValueError naming the label, where the GPU would have
raised a device-side assert at some later call.  Both on CPU, on the 2.13.0 CPU build.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="cuda-device-side-assert",
    variant="fixed-check-labels",
    description="fix (the entry's snippet): labels checked against num_classes; names label 5",
    expect="complete",
    role=FIXED,
    key_text=("good labels: 3 steps done", "bad labels: ValueError: labels [5] are outside [0, 5)"),
    snippet=("check-indices-in-range", "pytorch"),
)

NUM_CLASSES = 5


def main(rank, world_size):
    torch.manual_seed(0)
    model = nn.Linear(4, NUM_CLASSES)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = []
    step = optimizer.step
    optimizer.step = lambda *a, **k: (steps.append(True), step(*a, **k))[1]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    good = [(torch.randn(4, 4), torch.randint(0, NUM_CLASSES, (4,))) for _ in range(3)]
    run_snippet(code, model=model, dataloader=good, optimizer=optimizer, num_classes=NUM_CLASSES)
    assert len(steps) == 3, steps
    bad = [(torch.randn(4, 4), torch.tensor([0, 1, 2, 5]))]
    try:
        run_snippet(code, model=model, dataloader=bad, optimizer=optimizer, num_classes=NUM_CLASSES)
        raise AssertionError("the check let label 5 through")
    except ValueError as error:
        message = f"{type(error).__name__}: {error}"
    assert len(steps) == 3, "the bad batch reached the optimizer"
    if rank == 0:
        print("good labels: 3 steps done")
        print(f"bad labels: {message}")


if __name__ == "__main__":
    launch(main, SCENARIO)
