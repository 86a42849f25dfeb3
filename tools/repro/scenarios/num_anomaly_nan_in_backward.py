"""NUM-002: under torch.autograd.detect_anomaly, a Euclidean-distance loss
``sqrt(sum(diff**2))`` of a residual that is exactly zero: its forward is 0, but its backward
computes 0 * inf, and anomaly mode stops backward at the function that returned NaN, after
printing the forward traceback that created it."""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import zero_batches, zero_model

SCENARIO = Scenario(
    slug="autograd-anomaly-nan",
    variant="sqrt-of-zero-residual",
    description="detect_anomaly + sqrt(sum(diff**2)) at diff == 0: a backward returns NaN",
    expect="fail",
    key_text=(
        "returned nan values in its 0th output",
        "Traceback of forward call that caused the error",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(zero_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.autograd.detect_anomaly():
        for inputs, targets in zero_batches():
            optimizer.zero_grad()
            diff = model(inputs) - targets
            loss = torch.sqrt((diff**2).sum(dim=-1)).mean()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    launch(main, SCENARIO)
