"""DEV-004: a classifier whose in_features were computed for 8x8 inputs, fed 12x12 ones.

A small conv feature extractor flattens to 4 * 6 * 6 = 144 features for 12x12 images, but the
head was sized for 8x8 (4 * 4 * 4 = 64): "mat1 and mat2 shapes cannot be multiplied (2x144 and
64x3)", on every rank, in the first forward.
"""

import torch
import torch.nn as nn

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="classifier-sized-for-other-input",
    description="broken: head sized for 8x8 inputs, images are 12x12",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x144 and 64x3)",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
    head = nn.Linear(4 * 4 * 4, 3)  # computed for 8x8 images
    images = torch.randn(2, 1, 12, 12)
    logits = head(torch.flatten(features(images), 1))
    logits.sum().backward()
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
