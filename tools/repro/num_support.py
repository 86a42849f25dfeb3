"""What the numerics family's scenarios (num_*) share: small deterministic batches whose
values break a loss or a gradient the way the field's do, and the same batches for the fixes."""

import torch


def saturating_batches(rank: int, steps: int = 3, bad_step: int = 2):
    """(inputs, targets) batches for a 4 -> 1 logistic model. The batch at ``bad_step`` is
    scaled so that the sigmoid of its logits rounds to exactly 1.0 in float32: with targets of
    1, the plain binary cross-entropy then computes 0 * log(0) = NaN."""
    generator = torch.Generator().manual_seed(100 + rank)
    batches = []
    for step in range(steps):
        inputs = torch.rand(8, 4, generator=generator) + 0.5
        if step == bad_step:
            inputs = inputs * 100.0
        batches.append((inputs, torch.ones(8, 1)))
    return batches


def logistic_model():
    """A 4 -> 1 linear layer with positive weights, the same on every rank."""
    model = torch.nn.Linear(4, 1)
    with torch.no_grad():
        model.weight.fill_(0.5)
        model.bias.zero_()
    return model


def regression_batches(rank: int, steps: int = 4, features: int = 4, outputs: int = 2):
    """Random (inputs, targets) regression batches, different per rank."""
    generator = torch.Generator().manual_seed(200 + rank)
    return [
        (
            torch.randn(8, features, generator=generator),
            torch.randn(8, outputs, generator=generator),
        )
        for _ in range(steps)
    ]


def batches_with_an_overflow(rank: int, steps: int = 4, overflowing: int = 1):
    """regression_batches with one batch (the same on every rank) whose inputs are large
    enough that an fp16 forward overflows to inf: a step a GradScaler skips."""
    batches = regression_batches(rank, steps)
    inputs, targets = batches[overflowing]
    batches[overflowing] = (inputs * 1e5, targets)
    return batches


def zero_batches(steps: int = 2, features: int = 4, outputs: int = 2):
    """Batches whose targets equal what a zero-initialised model predicts (zero): the
    residual is exactly zero, where the gradient of a Euclidean norm is undefined."""
    return [(torch.randn(8, features), torch.zeros(8, outputs)) for _ in range(steps)]


def zero_model(features: int = 4, outputs: int = 2):
    model = torch.nn.Linear(features, outputs)
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    return model
