"""What the framework scenarios of the static-graph, uneven-input, compile and collective
entries share (beside framework_support's models and script lines): the user's models and
script habits that break DDP in each framework, as the plain-PyTorch scenarios (g1_*, g2_*,
g4_*) break it without one.
"""

from __future__ import annotations

import torch.nn as nn

from tools.repro.framework_support import network


class AuxHeadFirst(nn.Module):
    """The network and an auxiliary head its forward adds on the first call only (a warm-up
    loss term switched off after step 0): the head gets a gradient in the first iteration and
    none afterwards."""

    def __init__(self):
        super().__init__()
        self.net = network()
        self.aux_head = nn.Linear(4, 1)
        self.calls = 0

    def forward(self, batch):
        self.calls += 1
        output = self.net(batch)
        return output + self.aux_head(batch) if self.calls == 1 else output


# --- A rank that is late: rank 0's own slow work between two steps -------------------------

SLOW_WORK_S = 5.0  # rank 0's work between two steps (a checkpoint written, say)
SHORT_TIMEOUT_S = 4  # the broken runs' process-group timeout: shorter than that work


def slow_work_on_rank_zero(rank: int) -> None:
    """What the script does on rank 0 only after a step (writing a checkpoint, an evaluation),
    while the other rank goes on to the next step's all-reduce."""
    import time

    if rank == 0:
        time.sleep(SLOW_WORK_S)


def late_rank_callback(rank: int):
    """A Lightning callback that does slow_work_on_rank_zero after the first batch."""
    import lightning.pytorch as pl

    class CheckpointOnRankZero(pl.Callback):
        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            if batch_idx == 0:
                slow_work_on_rank_zero(rank)

    return CheckpointOnRankZero()


def late_rank_trainer(rank: int):
    """A Trainer subclass that does slow_work_on_rank_zero before the second step."""
    from transformers import Trainer

    class CheckpointOnRankZero(Trainer):
        done = False

        def training_step(self, model, inputs, num_items_in_batch=None):
            if self.state.global_step == 1 and not self.done:
                self.done = True
                slow_work_on_rank_zero(rank)
            return super().training_step(model, inputs, num_items_in_batch)

    return CheckpointOnRankZero


def accelerate_train_with_late_rank(accelerator, rank, model, optimizer, dataloader) -> None:
    """The script's loop after prepare(), with slow_work_on_rank_zero after the first step."""
    for step, batch in enumerate(dataloader):
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
        if step == 0:
            slow_work_on_rank_zero(rank)


# --- Uneven inputs: ranks with different numbers of batches ---------------------------------


def uneven_shard(rank: int):
    """The rank's own shard, cut by hand: 2 batches of 4 rows on rank 0, 4 on rank 1."""
    import torch

    generator = torch.Generator().manual_seed(rank)
    rows = list(torch.randn((2 if rank == 0 else 4) * 4, 4, generator=generator))
    return torch.utils.data.DataLoader(rows, batch_size=4)


def whole_dataset_loader():
    """The whole dataset, the same on every rank (20 rows, batches of 4), for a framework's
    sampler to split."""
    import torch

    generator = torch.Generator().manual_seed(0)
    return torch.utils.data.DataLoader(list(torch.randn(20, 4, generator=generator)), batch_size=4)


def uneven_predictions(rank: int):
    """The predictions of the rank's last evaluation batch: 4 on rank 0, 3 on rank 1 (the
    dataset does not divide evenly)."""
    import torch

    return torch.arange(4 if rank == 0 else 3, dtype=torch.float32) + 10 * rank
