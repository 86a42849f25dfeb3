"""Small models and helpers shared by the lab's FSDP (shard_*) and devices (dev_*) scenarios."""

import torch
import torch.nn as nn


class LayerStack(nn.Module):
    """Two Linear layers in `self.layers` (the name FSDP2's per-layer loop in the snippet
    expects), returning a scalar loss so a step needs no data of its own."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 8), nn.Linear(8, 1)])

    def forward(self, x):
        x = torch.relu(self.layers[0](x))
        return self.layers[1](x.to(self.layers[1].weight.dtype)).float().pow(2).mean()


def partly_frozen_stack() -> LayerStack:
    """The PEFT-like case: the first layer frozen, the second trained."""
    torch.manual_seed(0)
    model = LayerStack()
    for p in model.layers[0].parameters():
        p.requires_grad_(False)
    return model


def two_dtype_stack() -> LayerStack:
    """A half-precision base layer next to an fp32 one (an fp32 head on a bf16 model)."""
    torch.manual_seed(0)
    model = LayerStack()
    model.layers[0].to(torch.bfloat16)
    return model


def count_steps(optimizer) -> list:
    """Wrap optimizer.step so the scenario can assert how many steps the snippet's loop ran."""
    steps = []
    step = optimizer.step
    optimizer.step = lambda *a, **k: (steps.append(True), step(*a, **k))[1]
    return steps


def train_steps(model, optimizer, n: int = 3) -> None:
    """A few steps on the scalar-loss model."""
    for _ in range(n):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).backward()
        optimizer.step()
