"""What the framework scenarios of the numerics, devices and compile entries share (beside
framework_support's models and script lines): data that comes from NumPy in float64, the
user's LightningModule that trains on it, and the Accelerate loop over it.

The dtype scenarios are the plain-PyTorch `dev_numpy_float64_into_linear` run through a
framework: features and targets built with NumPy, whose default float is float64, and turned
into tensors with torch.from_numpy, which keeps it; the float32 network refuses them in its
first Linear.
"""

from __future__ import annotations

import numpy as np
import torch

from tools.repro.framework_support import MICRO_BATCHES, network


def float64_pairs(rank: int):
    """A loader of (features, targets) batches as a NumPy pipeline hands them over: float64
    tensors, different on every rank (so that unsynchronised gradients would differ)."""
    generator = np.random.default_rng(rank)
    batches = [
        (
            torch.from_numpy(generator.normal(size=(4, 4))),
            torch.from_numpy(generator.normal(size=(4, 1))),
        )
        for _ in range(MICRO_BATCHES)
    ]
    return torch.utils.data.DataLoader(batches, batch_size=None)


def float64_rows(rank: int) -> list:
    """Feature rows from NumPy, float64, for a loader that batches them (Accelerate's)."""
    return list(torch.from_numpy(np.random.default_rng(rank).normal(size=(MICRO_BATCHES * 4, 4))))


def regression_module_class(training_step=None):
    """The user's LightningModule: the network as its forward, mean-square error as its
    loss_fn, SGD. Its training_step feeds the batch as it comes, unless the script takes
    `training_step` from elsewhere (an entry's snippet)."""
    import lightning.pytorch as pl

    class Regression(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = network()
            self.loss_fn = torch.nn.functional.mse_loss

        def forward(self, inputs):
            return self.net(inputs)

        def training_step(self, batch, batch_idx):
            inputs, targets = batch
            return self.loss_fn(self(inputs), targets)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    if training_step is not None:
        Regression.training_step = training_step
    return Regression


def accelerate_float64_script(rank: int):
    """What the user's Accelerate script builds before prepare(): the MeanSquare network (its
    forward returns its loss), its SGD, and the loader of this rank's float64 rows."""
    from tools.repro.accelerate_support import MeanSquare

    torch.manual_seed(0)
    module = MeanSquare(network())
    optimizer = torch.optim.SGD(module.parameters(), lr=0.1)
    return module, optimizer, torch.utils.data.DataLoader(float64_rows(rank), batch_size=4)


def accelerate_float64_train(accelerator, module, optimizer, dataloader, convert=None) -> None:
    """The script's prepare() and loop; each batch goes through `convert` first where the
    script has one (an entry's snippet)."""
    model, optimizer, dataloader = accelerator.prepare(module, optimizer, dataloader)
    for inputs in dataloader:
        if convert is not None:
            inputs = convert(inputs)
        accelerator.backward(model(inputs))
        optimizer.step()
        optimizer.zero_grad()
