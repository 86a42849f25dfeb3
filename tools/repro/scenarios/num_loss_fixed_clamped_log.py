"""NUM-001 fix: the entry's plain-PyTorch snippet (probabilities clamped away from 0 and 1, a
guard that raises at the first non-finite loss) trains on the same batches whose plain log()
gave NaN; every loss is finite and the gradients are equal across ranks."""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.num_support import logistic_model, saturating_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="loss-nan-or-inf",
    variant="fixed-clamped-log",
    description="fix (the entry's snippet): clamp before log, stop at a non-finite loss",
    expect="complete",
    role=FIXED,
    key_text=("3 steps with finite losses, gradients equal across ranks",),
    snippet=("guard-the-loss", "pytorch"),
)


def main(rank, world_size):
    model = torch.nn.parallel.DistributedDataParallel(logistic_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    steps = check_each_step(optimizer, model.module)
    names = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        model=model,
        dataloader=saturating_batches(rank),
        optimizer=optimizer,
    )
    assert torch.isfinite(names["loss"]), names["loss"]
    assert len(steps) == 3, steps
    if rank == 0:
        print("3 steps with finite losses, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
