"""NUM-004: gradient accumulation over 4 micro-batches with a GradScaler, where the loop
unscales and clips on every micro-batch but steps and updates only every 4: the second
micro-batch's unscale_ raises, on torch.amp.GradScaler("cpu") as on CUDA."""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import regression_batches

SCENARIO = Scenario(
    slug="gradscaler-unscale-twice",
    variant="unscale-every-micro-step",
    description="GradScaler: unscale_ + clip on every micro-batch, step/update every 4",
    expect="fail",
    key_text=("unscale_() has already been called on this optimizer since the last update().",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    accumulation_steps = 4
    for i, (inputs, targets) in enumerate(regression_batches(rank, steps=8)):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(inputs), targets) / accumulation_steps
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # on every micro-batch: the bug
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if (i + 1) % accumulation_steps == 0:
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()


if __name__ == "__main__":
    launch(main, SCENARIO)
