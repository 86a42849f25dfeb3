"""DEV-003: a float64 NumPy batch into a float32 nn.Linear.

Features from NumPy (float64 by default) become a tensor through torch.from_numpy, which keeps
the dtype; the first Linear refuses the Double input ("mat1 and mat2 must have the same dtype,
but got Double and Float"), on every rank, in the first forward.
"""

import numpy as np
import torch
import torch.nn as nn

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="numpy-float64-into-linear",
    description="broken: torch.from_numpy of a float64 array into nn.Linear (float32)",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    features = np.random.default_rng(rank).normal(size=(8, 4))  # float64
    model = nn.Linear(4, 1)
    loss = model(torch.from_numpy(features)).pow(2).mean()
    loss.backward()
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
