"""NUM-004: a GradScaler loop that skips both scaler.step() and scaler.update() when the
gradients are not finite (espnet/espnet#2362's loop): after the batch that overflows in fp16,
the next iteration's unscale_ raises, on torch.amp.GradScaler("cpu") as on CUDA."""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import batches_with_an_overflow

SCENARIO = Scenario(
    slug="gradscaler-unscale-twice",
    variant="update-skipped-with-the-step",
    description="GradScaler: step and update both skipped after non-finite gradients",
    expect="fail",
    key_text=("unscale_() has already been called on this optimizer since the last update().",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    for inputs, targets in batches_with_an_overflow(rank):
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if not torch.isfinite(grad_norm):
            optimizer.zero_grad()
            continue  # the bug: the update is skipped with the step
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch(main, SCENARIO)
