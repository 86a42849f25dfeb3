"""NUM-001: a hand-written binary cross-entropy takes log() of a sigmoid that rounds to exactly
1.0, so ``0 * log(0)`` makes the loss NaN at the third step; the loop's guard (the one DeiT and
MAE use) stops the run with "Loss is nan, stopping training" on every rank."""

import math
import sys

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import logistic_model, saturating_batches

SCENARIO = Scenario(
    slug="loss-nan-or-inf",
    variant="log-of-saturated-sigmoid",
    description="plain BCE with log() of a sigmoid that rounds to 1.0: loss nan, the guard stops",
    expect="fail",
    key_text=("Loss is nan, stopping training", "step 2 loss: nan"),
)


def main(rank, world_size):
    model = torch.nn.parallel.DistributedDataParallel(logistic_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, (inputs, targets) in enumerate(saturating_batches(rank)):
        optimizer.zero_grad()
        probs = torch.sigmoid(model(inputs))
        loss = -(targets * probs.log() + (1 - targets) * (1 - probs).log()).mean()
        print(f"[rank{rank}] step {step} loss: {loss.item():.4f}", flush=True)
        if not math.isfinite(loss.item()):
            print(f"Loss is {loss.item()}, stopping training", flush=True)
            sys.exit(1)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    launch(main, SCENARIO)
