"""NUM-004 fix: the entry's plain-PyTorch snippet (unscale_ and clipping only on the micro-batch
that steps) with 4 accumulation steps and torch.amp.GradScaler("cpu"): two optimizer steps
complete, the gradients equal across ranks before each."""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.num_support import regression_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gradscaler-unscale-twice",
    variant="fixed-unscale-once-per-step",
    description="fix (the entry's snippet): unscale_ once per optimizer step",
    expect="complete",
    role=FIXED,
    key_text=("2 optimizer steps over 8 micro-batches, gradients equal across ranks",),
    snippet=("unscale-once-per-step", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4"),
        model=model,
        dataloader=regression_batches(rank, steps=8),
        optimizer=optimizer,
        loss_fn=torch.nn.functional.mse_loss,
    )
    assert len(steps) == 2, steps
    if rank == 0:
        print("2 optimizer steps over 8 micro-batches, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
