"""What the framework scenarios of the reducer entries share (beside framework_support's models
and script lines, lightning_support and accelerate_support): the user's training steps that
backward more than once, place no_sync() by hand or take a branch on one rank only, as the
plain-PyTorch scenarios (g1_*, g2_*, hooks_*, silent_*) do without a framework.
"""

from __future__ import annotations

import os

import torch
import torch.nn as nn

from tools.repro.accelerate_support import prepare_two_heads
from tools.repro.framework_support import loss_fn_a, loss_fn_b
from tools.repro.harness import grads_match_across_ranks
from tools.repro.lightning_support import TwoHeadsModule

# --- Several backwards over one forward ------------------------------------------------------


def two_backwards_without_retain_module():
    """A LightningModule under manual optimization that backwards the losses of TwoHeads
    separately without retain_graph: the second backward goes through the trunk's graph again,
    whose saved tensors the first one freed."""
    import lightning.pytorch as pl

    class TwoBackwards(TwoHeadsModule, pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            optimizer = self.optimizers()
            out_a, out_b = self.model(batch)
            self.manual_backward(loss_fn_a(out_a))
            self.manual_backward(loss_fn_b(out_b))
            optimizer.step()
            optimizer.zero_grad()

    return TwoBackwards()


def train_two_backwards_without_retain(accelerator, rank: int) -> None:
    """The Accelerate script that backwards TwoHeads's two losses separately, without
    retain_graph."""
    model, optimizer, dataloader = prepare_two_heads(accelerator, rank)
    for batch in dataloader:
        out_a, out_b = model(batch)
        accelerator.backward(loss_fn_a(out_a))
        accelerator.backward(loss_fn_b(out_b))
        optimizer.step()
        optimizer.zero_grad()


# --- A branch taken on some ranks only -------------------------------------------------------


class BranchOnRankZero(nn.Module):
    """The 4 -> 8 -> 1 network with an `extra` layer its forward runs on rank 0 only: a branch
    that depends on the rank's own data (an empty-target batch, an expert the router picks, a
    modality present in some batches), so `extra` gets a gradient on rank 0 and none on rank 1.
    The rank comes from torchrun's environment, as every framework here reads it."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Linear(4, 8)
        self.extra = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)
        self.takes_branch = int(os.environ["RANK"]) == 0

    def forward(self, batch):
        hidden = torch.relu(self.body(batch))
        if self.takes_branch:
            hidden = hidden + self.extra(hidden)
        return self.head(hidden)


# --- A hand-written no_sync() around the forward only ----------------------------------------


def train_forward_in_no_sync(accelerator, model, optimizer, dataloader, steps: int = 4) -> list:
    """The Accelerate script that accumulates by hand: every micro-batch's forward inside
    accelerator.no_sync(model), meant to "not sync while accumulating, sync on the backward",
    the backward outside it. Returns, for each optimizer step, whether the gradients were
    equal across ranks."""
    equal = []
    for i, batch in enumerate(dataloader):
        with accelerator.no_sync(model):
            loss = model(batch) / steps
        accelerator.backward(loss)
        if (i + 1) % steps == 0:
            equal.append(grads_match_across_ranks(accelerator.unwrap_model(model)))
            optimizer.step()
            optimizer.zero_grad()
    return equal


def forward_in_no_sync_trainer(equal: list):
    """The user's Trainer subclass whose compute_loss runs the forward inside the DDP model's
    no_sync() (as a hand-written accumulation loop did), the Trainer's backward outside it.
    Before each optimizer step it appends to `equal` whether the gradients are equal across
    ranks."""
    import contextlib

    from transformers import Trainer, TrainerCallback

    class RecordGradients(TrainerCallback):
        def __init__(self, model):
            self.model = model

        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            equal.append(grads_match_across_ranks(self.model))

    class NoSyncForwardTrainer(Trainer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.add_callback(RecordGradients(self.model))

        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            no_sync = getattr(model, "no_sync", contextlib.nullcontext)
            with no_sync():
                outputs = model(**inputs)
            return (outputs["loss"], outputs) if return_outputs else outputs["loss"]

    return NoSyncForwardTrainer


def report_gradients(equal: list, rank: int) -> None:
    """What a broken scenario whose failure is silent prints: whether the ranks' gradients
    were equal at every optimizer step."""
    assert equal, "no optimizer step"
    if rank == 0:
        verdict = "equal" if all(equal) else "differ"
        print(f"{len(equal)} optimizer steps: gradients {verdict} across ranks")


# --- The same habits in Lightning, where they stay synchronised ------------------------------


def lightning_manual_module(habit: str, equal: list):
    """A LightningModule under manual optimization around the 4 -> 8 -> 1 network, with one of
    the habits that leave gradients unsynchronised in plain DDP: "no_sync-forward" (every
    micro-batch's forward inside the DDP model's no_sync(), manual_backward outside, a step
    every 4) or "second-backward" (manual_backward(main, retain_graph=True), then
    manual_backward(aux) over the same output, which the first already took to every
    parameter). Before each step it appends to `equal` whether the gradients are equal across
    ranks."""
    import lightning.pytorch as pl

    from tools.repro.framework_support import network

    class Manual(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.net = network()

        def training_step(self, batch, batch_idx):
            optimizer = self.optimizers()
            if habit == "no_sync-forward":
                with self.trainer.strategy.model.no_sync():
                    loss = self.net(batch).pow(2).mean() / 4
                self.manual_backward(loss)
                if (batch_idx + 1) % 4 != 0:
                    return
            else:
                out = self.net(batch)
                self.manual_backward(out.pow(2).mean(), retain_graph=True)
                self.manual_backward(out.abs().mean())
            equal.append(grads_match_across_ranks(self))
            optimizer.step()
            optimizer.zero_grad()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Manual()
