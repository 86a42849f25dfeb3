"""What the Hugging Face Trainer's scenarios of ddp-uneven-inputs-hang share
(scenarios/fw_hf_trainer_uneven_*.py): the examples a script gives the Trainer, cut per rank by
hand or whole.

The Trainer itself never makes the ranks uneven: transformers 5.24.0 hands its DataLoader to
Accelerate's prepare(), whose BatchSamplerShard (even_batches=True) gives every rank the same
number of batches of the dataset it is given. The ranks go uneven when each one is given a
dataset of its own, of a different length.
"""

from __future__ import annotations

import torch

BATCH_SIZE = 2  # examples per rank and batch, as the lab's other Trainer runs


def examples(count: int, seed: int):
    """`count` examples for framework_support's RegressionModel (x, labels)."""
    generator = torch.Generator().manual_seed(seed)
    return [
        {"x": torch.randn(4, generator=generator), "labels": torch.randn(1, generator=generator)}
        for _ in range(count)
    ]


def own_shard(rank: int):
    """The rank's own shard, cut by hand: 8 examples on rank 0, 16 on rank 1. Accelerate's
    shard of it leaves 2 batches on rank 0 and 4 on rank 1."""
    return examples(8 if rank == 0 else 16, seed=rank)


def whole_dataset():
    """The whole dataset, the same on every rank: 34 examples, 17 batches, which Accelerate's
    shard splits into 9 a rank (rank 1's last batch wraps around to the first examples)."""
    return examples(34, seed=0)
