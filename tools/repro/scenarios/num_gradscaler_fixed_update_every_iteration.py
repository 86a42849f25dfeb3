"""NUM-004 fix: the entry's plain-PyTorch snippet (scaler.update() on every iteration, the step
skipped when the gradients are not finite) over eight batches of which one overflows in fp16
(and the first ones may too, as the scaler finds its scale): every batch goes through, the
steps of the finite ones complete, the gradients equal across ranks before each."""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.num_support import batches_with_an_overflow
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gradscaler-unscale-twice",
    variant="fixed-update-every-iteration",
    description="fix (the entry's snippet): scaler.update() on every iteration",
    expect="complete",
    role=FIXED,
    key_text=("every batch went through, the overflowing ones without a step",),
    snippet=("update-every-iteration", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        model=model,
        dataloader=batches_with_an_overflow(rank, steps=8),
        optimizer=optimizer,
        loss_fn=torch.nn.functional.mse_loss,
    )
    assert 0 < len(steps) < 8, steps  # some steps skipped, the rest taken, none raised
    if rank == 0:
        print(f"{len(steps)} steps over 8 batches:")
        print("every batch went through, the overflowing ones without a step")


if __name__ == "__main__":
    launch(main, SCENARIO)
