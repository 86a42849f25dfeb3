"""What the framework scenarios of matmul-shape-mismatch share (fw_*_matmul_*): the classifier
of dev_classifier_sized_for_other_input, taken into Lightning 2.6.6 and the Hugging Face Trainer
of transformers 5.24.0.

A small conv feature extractor flattens 12x12 one-channel images to 4 * 6 * 6 = 144 features;
the user's head was sized for 8x8 ones (4 * 4 * 4 = 64), so its first forward fails with "mat1
and mat2 shapes cannot be multiplied (2x144 and 64x3)" at a batch of two. The fixed runs give
the same extractor and images to the entry's snippet, which sizes the head from one of them.
"""

from __future__ import annotations

import torch
import torch.nn as nn

from tools.repro.framework_support import MICRO_BATCHES

IMAGE_SIZE = 12  # the data's resolution
NUM_CLASSES = 3


def features() -> nn.Module:
    """The same feature extractor on every rank."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))


def head_sized_for_8x8() -> nn.Linear:
    """The user's head: in_features worked out by hand for 8x8 images."""
    return nn.Linear(4 * 4 * 4, NUM_CLASSES)


def _images_and_labels(rank: int, count: int):
    """Different images on every rank, so that unsynchronised gradients would differ."""
    generator = torch.Generator().manual_seed(rank)
    images = torch.randn(count, 1, IMAGE_SIZE, IMAGE_SIZE, generator=generator)
    labels = torch.randint(0, NUM_CLASSES, (count,), generator=generator)
    return images, labels


def image_batches(rank: int) -> torch.utils.data.DataLoader:
    """A loader of (images, labels) batches of two, this rank's own."""
    images, labels = _images_and_labels(rank, 2 * MICRO_BATCHES)
    batches = list(zip(images.split(2), labels.split(2), strict=True))
    return torch.utils.data.DataLoader(batches, batch_size=None)


def image_dataset(rank: int) -> list[dict]:
    """The Trainer's form of the same data: one {"pixel_values", "labels"} example per image."""
    images, labels = _images_and_labels(rank, 2 * MICRO_BATCHES)
    return [{"pixel_values": x, "labels": y} for x, y in zip(images, labels, strict=True)]


def lightning_classifier_sized_for_8x8(example_input_array=None):
    """The user's LightningModule whose head was sized for 8x8 images; with
    `example_input_array` set, as the entry's Lightning snippet used to advise."""
    import lightning.pytorch as pl

    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.features = features()
            self.head = head_sized_for_8x8()
            self.example_input_array = example_input_array

        def forward(self, x):
            return self.head(torch.flatten(self.features(x), 1))

        def training_step(self, batch, batch_idx):
            images, labels = batch
            return nn.functional.cross_entropy(self(images), labels)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Classifier()


class TrainerClassifierSizedFor8x8(nn.Module):
    """The same classifier as the Trainer takes a model: keyword inputs, a `loss` out."""

    def __init__(self):
        super().__init__()
        self.features = features()
        self.head = head_sized_for_8x8()

    def forward(self, pixel_values, labels=None):
        logits = self.head(torch.flatten(self.features(pixel_values), 1))
        return {"loss": nn.functional.cross_entropy(logits, labels), "logits": logits}
