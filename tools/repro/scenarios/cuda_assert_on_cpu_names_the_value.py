"""CUDA-001, the entry's advice: run the failing step on CPU to see which value is wrong.

On a GPU an out-of-range class label or token id makes the kernel assert ("CUDA error:
device-side assert triggered"), reported at some later call.  That text needs a GPU.  What this
machine can show for real is the advice: the same two bugs run on CPU raise plain errors that
name the value, "IndexError: Target 5 is out of bounds." for a label outside [0, num_classes)
and "IndexError: index out of range in self" for a token id past the embedding.  The script
catches and prints both and exits 0; the CPU errors are not the entry's own text, so nothing is
captured into the corpus.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from tools.repro.harness import NO_REPRO, Scenario, launch

SCENARIO = Scenario(
    slug="cuda-device-side-assert",
    variant="cpu-run-names-the-value",
    description="advice: the out-of-range label and token id, run on CPU, raise errors naming them",
    expect="complete",
    role=NO_REPRO,
    key_text=(
        "label step on cpu: IndexError: Target 5 is out of bounds.",
        "token step on cpu: IndexError: index out of range in self",
    ),
)

NUM_CLASSES = 5


def main(rank, world_size):
    torch.manual_seed(0)
    classifier = nn.Linear(4, NUM_CLASSES)
    labels = torch.tensor([0, 1, 2, 5])  # counted from 1 somewhere: 5 is not a class of 5
    try:
        F.cross_entropy(classifier(torch.randn(4, 4)), labels).backward()
        print(f"rank {rank}: label step on cpu: no error")
    except IndexError as error:
        print(f"rank {rank}: label step on cpu: {type(error).__name__}: {error}")
    embedding = nn.Embedding(10, 4)  # a tokenizer with added tokens, an embedding not resized
    token_ids = torch.tensor([[1, 2, 10]])
    try:
        embedding(token_ids).sum().backward()
        print(f"rank {rank}: token step on cpu: no error")
    except IndexError as error:
        print(f"rank {rank}: token step on cpu: {type(error).__name__}: {error}")


if __name__ == "__main__":
    launch(main, SCENARIO)
