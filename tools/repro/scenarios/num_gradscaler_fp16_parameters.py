"""NUM-003: a model converted with .half() trained with a GradScaler, as a model loaded with
torch_dtype=torch.float16 and trained with --fp16 is: its gradients are fp16, and
torch.amp.GradScaler("cpu").unscale_ refuses them at the first step."""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import regression_batches

SCENARIO = Scenario(
    slug="gradscaler-unscale-fp16-gradients",
    variant="half-model-under-gradscaler",
    description="model.half() + GradScaler: unscale_ of fp16 gradients at the first step",
    expect="fail",
    key_text=("ValueError: Attempting to unscale FP16 gradients.",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2).half()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    for inputs, targets in regression_batches(rank):
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(inputs.half()).float(), targets)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    launch(main, SCENARIO)
