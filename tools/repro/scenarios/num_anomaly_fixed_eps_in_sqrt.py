"""NUM-002 fix: the entry's plain-PyTorch snippet (an epsilon inside the sqrt) trains on the
same zero residuals, still under detect_anomaly: no backward function returns NaN, every
gradient is finite and equal across ranks."""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.num_support import zero_batches, zero_model
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="autograd-anomaly-nan",
    variant="fixed-eps-inside-sqrt",
    description="fix (the entry's snippet): sqrt(sum(diff**2) + eps), under detect_anomaly",
    expect="complete",
    role=FIXED,
    key_text=("2 steps under detect_anomaly, finite gradients equal across ranks",),
    snippet=("eps-inside-the-operation", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(zero_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    with torch.autograd.detect_anomaly():
        run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            model=model,
            dataloader=zero_batches(),
            optimizer=optimizer,
        )
    assert all(torch.isfinite(p).all() for p in model.parameters())
    assert len(steps) == 2, steps
    if rank == 0:
        print("2 steps under detect_anomaly, finite gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
