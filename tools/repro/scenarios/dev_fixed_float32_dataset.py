"""DEV-003 fix: the entry's snippet, a Dataset that converts the NumPy arrays to float32.

The same float64 arrays as the broken run go through the snippet's ArrayDataset; batches reach
the Linear as float32 and three steps train.
"""

import numpy as np
import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.shard_dev_support import count_steps
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="fixed-float32-dataset",
    description="fix (the entry's snippet): convert float64 arrays to float32 in the Dataset",
    expect="complete",
    role=FIXED,
    key_text=("float32 batches: 3 steps",),
    snippet=("cast-data-to-float32", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    rng = np.random.default_rng(rank)
    features, targets = rng.normal(size=(24, 4)), rng.normal(size=(24, 1))  # float64
    names = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet), features=features, targets=targets
    )
    loader = torch.utils.data.DataLoader(names["dataset"], batch_size=8)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = count_steps(optimizer)
    for inputs, target in loader:
        assert inputs.dtype == torch.float32 and target.dtype == torch.float32
        optimizer.zero_grad()
        nn.functional.mse_loss(model(inputs), target).backward()
        optimizer.step()
    assert len(steps) == 3
    if rank == 0:
        print("float32 batches: 3 steps")


if __name__ == "__main__":
    launch(main, SCENARIO)
