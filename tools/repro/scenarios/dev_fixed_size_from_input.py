"""DEV-004 fix: the entry's snippet, the head sized from one real input.

The same feature extractor and 12x12 images as the broken run; the snippet's Classifier measures
the flattened size from an example batch, so the head gets 144 in_features and three steps train.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.shard_dev_support import count_steps
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="fixed-size-from-input",
    description="fix (the entry's snippet): in_features measured from an example input",
    expect="complete",
    role=FIXED,
    key_text=("head in_features 144: 3 steps",),
    snippet=("size-layer-from-real-input", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(0)
    features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
    dataloader = [(torch.randn(2, 1, 12, 12), torch.tensor([0, 2])) for _ in range(3)]
    names = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        features=features,
        dataloader=dataloader,
        num_classes=3,
    )
    model = names["model"]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = count_steps(optimizer)
    for images, labels in dataloader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(images), labels).backward()
        optimizer.step()
    assert len(steps) == 3
    if rank == 0:
        print(f"head in_features {model.head.in_features}: 3 steps")


if __name__ == "__main__":
    launch(main, SCENARIO)
