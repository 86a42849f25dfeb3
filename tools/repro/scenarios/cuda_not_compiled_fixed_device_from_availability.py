"""CUDA-006 fix: choose the device from availability (the CPU here).

Each worker runs the entry's own plain-PyTorch snippet, which asks torch.cuda.is_available()
once, sets the device only when CUDA is there, and moves the model and every batch to the chosen
device.  On the 2.13.0 CPU build it trains on CPU where the broken runs hard-coded .cuda(),
set_device or a CUDA tensor.  The step runs under the lab's gloo group; no DDP is needed.
"""

import torch

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="fixed-device-from-availability",
    description="fix (the entry's snippet): device from torch.cuda.is_available(); trains on CPU",
    expect="complete",
    role=FIXED,
    key_text=("device cpu: 3 steps done",),
    snippet=("device-from-availability", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = []
    step = optimizer.step
    optimizer.step = lambda *a, **k: (steps.append(True), step(*a, **k))[1]
    batches = [torch.randn(8, 4) for _ in range(3)]
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(code, model=model, dataloader=batches, optimizer=optimizer)
    assert len(steps) == 3, steps
    assert all(p.device.type == names["device"].type for p in names["model"].parameters())
    if rank == 0:
        print(f"device {names['device']}: 3 steps done")


if __name__ == "__main__":
    launch(main, SCENARIO)
