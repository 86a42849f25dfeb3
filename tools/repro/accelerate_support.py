"""What the lab's Accelerate scenarios share (beside framework_support's models and script
lines): the names a user's script defines before an Accelerate snippet, the machine's one line
the snippets leave out, and the script's loop after prepare().
"""

from __future__ import annotations

import torch
import torch.nn as nn

from tools.repro.framework_support import (
    MICRO_BATCHES,
    TwoHeads,
    arguments_the_script_gives,
    loss_fn_a,
    loss_fn_b,
    network,
    report_equal_gradients,
    tanh_network,
    token_dataset,
)
from tools.repro.harness import check_every_optimizer_step


class MeanSquare(nn.Module):
    """`net` whose forward returns its loss, the mean square of its output."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, batch):
        return self.net(batch).pow(2).mean()


def accelerate_names(rank: int, net=network, language_model=None) -> dict:
    """What the user's script defines before an Accelerate snippet: the model (MeanSquare of
    `net()`, its forward returning its loss, as the snippets write `loss = model(batch)`), its
    optimizer and scheduler, and the data. With `language_model` (e.g.
    framework_support.reentrant_gpt2), the model is `language_model()` and the data its token
    rows."""
    torch.manual_seed(0)
    if language_model:
        model = language_model()
        rows = token_dataset(rank)
    else:
        model = MeanSquare(net())
        # Different rows on every rank, so that equal gradients prove the synchronisation (with
        # torchrun on CPU, Accelerate 1.15.0 hands each rank every batch of its loader).
        generator = torch.Generator().manual_seed(rank)
        rows = list(torch.randn(MICRO_BATCHES * 4, 4, generator=generator))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1)
    dataloader = torch.utils.data.DataLoader(rows, batch_size=4)
    return {
        "model": model,
        "optimizer": optimizer,
        "scheduler": scheduler,
        "dataloader": dataloader,
    }


def accelerate_on_this_machine():
    """Under torchrun on a machine without a GPU, Accelerate 1.15.0 sets up no process group
    unless told `cpu=True`: every rank then trains alone, unsynchronised, without a warning.
    A user's script on such a machine says so; the snippets (written for GPUs) do not."""
    import accelerate

    return arguments_the_script_gives(accelerate.Accelerator, cpu=True)


def accelerate_train(accelerator, model, optimizer, dataloader) -> None:
    """The script's loop after prepare(). A batch of token rows (a dict) is a language model's
    inputs, the tokens their own labels, its loss in the output; any other model returns its
    loss."""
    for batch in dataloader:
        loss = model(**batch).loss if isinstance(batch, dict) else model(batch)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


def accelerate_prepare_fix(scenario, **names):
    """The `main` of a fixed Accelerate scenario whose snippet builds the Accelerator: the
    script's own prepare and loop follow it (`names`: accelerate_names's options)."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        script = accelerate_names(rank, **names)
        steps = check_every_optimizer_step(script["model"])
        with accelerate_on_this_machine():
            accelerator = run_snippet(fix_snippet(scenario.slug, *scenario.snippet))["accelerator"]
        accelerate_train(
            accelerator,
            *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
        )
        report_equal_gradients(steps, rank)

    return main


def accelerate_snippet_fix(scenario):
    """The `main` of a fixed Accelerate scenario whose snippet builds the Accelerator and
    prepares the script's model, optimizer and data itself: the script's loop follows it."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        script = accelerate_names(rank)
        steps = check_every_optimizer_step(script["model"])
        with accelerate_on_this_machine():
            names = run_snippet(fix_snippet(scenario.slug, *scenario.snippet), **script)
        accelerate_train(
            names["accelerator"], names["model"], names["optimizer"], names["dataloader"]
        )
        report_equal_gradients(steps, rank)

    return main


def accelerate_loop_fix(scenario, values=None):
    """The `main` of a fixed Accelerate scenario whose snippet is the whole loop (it builds the
    Accelerator, prepares the script's model, optimizer and data, and trains), rendered with
    `values` as the wizard renders it."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        script = accelerate_names(rank)
        steps = check_every_optimizer_step(script["model"])
        code = fix_snippet(scenario.slug, *scenario.snippet, **(values or {}))
        with accelerate_on_this_machine():
            run_snippet(code, **script)
        report_equal_gradients(steps, rank)

    return main


def prepare_two_heads(accelerator, rank: int):
    """TwoHeads, its optimizer and accelerate_names's data, prepared by `accelerator`."""
    model = TwoHeads()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    return accelerator.prepare(model, optimizer, accelerate_names(rank)["dataloader"])


def prepare_tanh_net(accelerator, rank: int):
    """framework_support.tanh_network, its optimizer and accelerate_names's data, prepared by
    `accelerator`."""
    model = tanh_network()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    return accelerator.prepare(model, optimizer, accelerate_names(rank)["dataloader"])


def train_two_backwards(accelerator, rank: int) -> None:
    """The script that backwards TwoHeads's two losses separately (accelerator.backward twice,
    retain_graph for the first)."""
    model, optimizer, dataloader = prepare_two_heads(accelerator, rank)
    for batch in dataloader:
        out_a, out_b = model(batch)
        accelerator.backward(loss_fn_a(out_a), retain_graph=True)
        accelerator.backward(loss_fn_b(out_b))
        optimizer.step()
        optimizer.zero_grad()


def single_backward_fix(scenario, **accelerator_options):
    """The `main` of a fixed Accelerate scenario whose snippet is the loop of one backward of
    TwoHeads's summed losses, after the script's Accelerator(**accelerator_options) prepared
    them."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        from accelerate import Accelerator

        with accelerate_on_this_machine():
            accelerator = Accelerator(**accelerator_options)
        model, optimizer, dataloader = prepare_two_heads(accelerator, rank)
        steps = check_every_optimizer_step(accelerator.unwrap_model(model))
        run_snippet(
            fix_snippet(scenario.slug, *scenario.snippet),
            accelerator=accelerator,
            model=model,
            optimizer=optimizer,
            dataloader=dataloader,
            loss_fn_a=loss_fn_a,
            loss_fn_b=loss_fn_b,
        )
        report_equal_gradients(steps, rank)

    return main
