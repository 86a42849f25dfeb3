"""What the framework scenarios of the distributed entries share (beside framework_support's
models and script lines): the user's models and script habits that break DDP's setup in each
framework, as the plain-PyTorch scenarios (g2_*, g3_*, g4_*) break it without one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn


def work_in_own_directory(name: str) -> None:
    """A directory of the scenario's own, for a scenario whose files (checkpoints) another
    scenario running at the same time must not overwrite; the same for every rank."""
    directory = Path(tempfile.gettempdir()) / "faultline-lab-frameworks" / f"dista-{name}"
    directory.mkdir(parents=True, exist_ok=True)
    os.chdir(directory)


def old_style_zero_grad(parameters) -> None:
    """A zero_grad copied from a pre-1.7 optimizer or an old training loop: it detaches each
    gradient in place, which a view of DDP's buckets (gradient_as_bucket_view) refuses."""
    for p in parameters:
        if p.grad is not None:
            p.grad.detach_()
            p.grad.zero_()


class Encoded(nn.Module):
    """The 4 -> 8 -> 1 network as an encoder and a head (the part a script freezes by name,
    `model.encoder`)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.encoder = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, batch):
        return self.head(torch.relu(self.encoder(batch)))


class EncodedLoss(Encoded):
    """Encoded whose forward returns its loss, the mean square of its output (the Accelerate
    scripts' `loss = model(batch)`)."""

    def forward(self, batch):
        return super().forward(batch).pow(2).mean()


def hidden_size_of_this_node() -> int:
    """A size read from the node's own configuration (a file, an environment variable, a
    tokenizer with extra tokens) that says 4 on rank 0's node and 5 on the other's."""
    return 4 if int(os.environ["RANK"]) == 0 else 5


def build_model(hidden_size: int = 4, vocab_size: int = 1) -> nn.Module:
    """The user's model factory: 4 inputs, `hidden_size` hidden units, `vocab_size` outputs."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, hidden_size), nn.ReLU(), nn.Linear(hidden_size, vocab_size))


class MeanSquareOf(nn.Module):
    """`net` whose forward returns its loss (the Accelerate scripts' `loss = model(batch)`)."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, batch):
        return self.net(batch).pow(2).mean()


def batch_normed() -> nn.Module:
    """The network with a BatchNorm layer between its two Linears."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))


def lightning_trainer_fix(scenario, module=None):
    """The `main` of a fixed Lightning scenario whose snippet builds the Trainer with
    accelerator="auto" and devices="auto": on the machine the snippet is for, one device per
    process, as here the two CPU processes. The Trainer fits lightning_module_class's module (or
    the script's own `module()`), its gradients checked at every optimizer step."""
    from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
    from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        work_in_temporary_directory()
        code = fix_snippet(scenario.slug, *scenario.snippet)
        with lightning_on_this_machine(auto_devices=world_size):
            trainer = run_snippet(code)["trainer"]
        steps = fit_lightning(trainer, rank, module=module() if module else None)
        report_equal_gradients(steps, rank)

    return main


class EncodedModule:
    """The user's LightningModule around Encoded (`self.model`), mixed in before
    pl.LightningModule or before the snippet's LitModel that brings configure_model."""

    def __init__(self):
        super().__init__()
        self.model = Encoded()

    def training_step(self, batch, batch_idx):
        return self.model(batch).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def accelerate_model_fix(scenario, model_class):
    """The `main` of a fixed Accelerate scenario whose snippet builds the Accelerator and
    prepares the script's `model` (a `model_class()`, its forward returning its loss) and
    `optimizer` itself: the script's loop over accelerate_names's data follows it."""
    from tools.repro.accelerate_support import (
        accelerate_names,
        accelerate_on_this_machine,
        accelerate_train,
    )
    from tools.repro.framework_support import report_equal_gradients
    from tools.repro.harness import check_every_optimizer_step
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        model = model_class()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        dataloader = accelerate_names(rank)["dataloader"]
        steps = check_every_optimizer_step(model)
        with accelerate_on_this_machine():
            names = run_snippet(
                fix_snippet(scenario.slug, *scenario.snippet), model=model, optimizer=optimizer
            )
        accelerate_train(names["accelerator"], names["model"], names["optimizer"], dataloader)
        report_equal_gradients(steps, rank)

    return main


def sized_module_class(training_step_base=None):
    """The user's LightningModule: `self.model`, the mean square of its output as the loss, SGD.
    Built on `training_step_base` (the snippet's LitModel, whose __init__ builds `self.model`),
    or on a LightningModule that builds the model from the node's own hidden size."""
    import lightning.pytorch as pl

    class FromThisNode(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = build_model(hidden_size=hidden_size_of_this_node())

    class Sized(training_step_base or FromThisNode):
        def training_step(self, batch, batch_idx):
            return self.model(batch).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Sized


def tokenizer_with(extra_tokens: int = 0):
    """The script's tokenizer: tiny_gpt2's 32 token ids and two special ones, plus
    `extra_tokens` more (a tokenizer that adds special tokens on one node only)."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from transformers import PreTrainedTokenizerFast

    vocabulary = {f"t{i}": i for i in range(32)} | {"<unk>": 32, "<pad>": 33}
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer(WordLevel(vocabulary, unk_token="<unk>")),
        unk_token="<unk>",
        pad_token="<pad>",
    )
    tokenizer.add_special_tokens(
        {"additional_special_tokens": [f"<x{i}>" for i in range(extra_tokens)]}
    )
    return tokenizer
