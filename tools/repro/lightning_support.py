"""What the lab's Lightning scenarios share (beside framework_support's models and script
lines): the user's LightningModule around a tiny network, the machine's arguments the
snippets leave out of pl.Trainer, and the fit with a gradient check at every optimizer step.
"""

from __future__ import annotations

import contextlib

import torch

from tools.repro.framework_support import (
    TwoHeads,
    arguments_the_script_gives,
    loss_fn_a,
    loss_fn_b,
    network,
    random_batches,
    report_equal_gradients,
    tanh_network,
    work_in_temporary_directory,
)
from tools.repro.harness import grads_match_across_ranks


def lightning_module_class(net=network, rank: int | None = None):
    """A LightningModule class whose loss is the mean square of the output of `net()`
    (network, or one of the networks here built around it: Unused, ReentrantCheckpointed...).
    With `rank`, the module brings its own train_dataloader of that rank's random_batches, for
    a snippet that calls `trainer.fit(LitModel())` itself."""
    import lightning.pytorch as pl

    class Tiny(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = net()

        def training_step(self, batch, batch_idx):
            return self.net(batch).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    if rank is None:
        return Tiny

    class WithData(Tiny):
        def train_dataloader(self):
            return torch.utils.data.DataLoader(random_batches(rank), batch_size=None)

    return WithData


class TwoHeadsModule:
    """The user's LightningModule around TwoHeads (`self.model`), whatever its training_step:
    mixed in before pl.LightningModule, or before the snippet's LitModel that brings one."""

    def __init__(self):
        super().__init__()
        self.model = TwoHeads()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class TanhNetModule:
    """The user's LightningModule around framework_support.tanh_network (`self.model`), whatever
    its training_step: mixed in before pl.LightningModule, or before the snippet's LitModel that
    brings one."""

    def __init__(self):
        super().__init__()
        self.model = tanh_network()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def two_backwards_module():
    """A LightningModule under manual optimization that backwards the losses of TwoHeads
    separately (manual_backward twice, retain_graph for the first)."""
    import lightning.pytorch as pl

    class TwoBackwards(TwoHeadsModule, pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            optimizer = self.optimizers()
            out_a, out_b = self.model(batch)
            self.manual_backward(loss_fn_a(out_a), retain_graph=True)
            self.manual_backward(loss_fn_b(out_b))
            optimizer.step()
            optimizer.zero_grad()

    return TwoBackwards()


def single_backward_fix(scenario, strategy=lambda: "ddp"):
    """The `main` of a fixed Lightning scenario whose snippet is the training_step of a
    TwoHeadsModule (one loss returned), fitted with `strategy()`."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        import lightning.pytorch as pl

        work_in_temporary_directory()
        code = fix_snippet(scenario.slug, *scenario.snippet)
        snippet = run_snippet(code, loss_fn_a=loss_fn_a, loss_fn_b=loss_fn_b)

        class LitModel(TwoHeadsModule, snippet["LitModel"]):
            pass

        with lightning_on_this_machine(accelerator="cpu", devices=world_size):
            trainer = pl.Trainer(strategy=strategy())
        report_equal_gradients(fit_lightning(trainer, rank, module=LitModel()), rank)

    return main


@contextlib.contextmanager
def lightning_on_this_machine(auto_devices: int = 1, **machine):
    """`pl.Trainer(...)` built inside gets `machine` (the accelerator, the devices) for the
    arguments its caller leaves out, as the user's script names its own hardware; plus what
    keeps the run short and quiet (no checkpoint, no progress bar). `devices="auto"` finds
    `auto_devices` (a CPU has one device; the GPU machine a snippet is written for has one per
    process)."""
    import lightning.pytorch as pl
    from lightning.pytorch.accelerators import CPUAccelerator

    count = CPUAccelerator.__dict__["auto_device_count"]
    CPUAccelerator.auto_device_count = staticmethod(lambda: auto_devices)
    try:
        with arguments_the_script_gives(
            pl.Trainer,
            **machine,
            max_epochs=1,
            enable_checkpointing=False,
            enable_progress_bar=False,
            enable_model_summary=False,
            logger=False,
            # Each rank trains on its own random batches (random_batches), as they are.
            use_distributed_sampler=False,
        ):
            yield
    finally:
        CPUAccelerator.auto_device_count = count


def fit_lightning(
    trainer, rank: int, net=network, check: bool = True, module=None, dataloader=None
):
    """Train a lightning_module_class(net) (or the script's own `module`) with `trainer`, on
    that rank's random_batches (or the script's own `dataloader`); asserts equal gradients
    across ranks at every optimizer step unless `check` is off (a broken run, whose own error
    must surface). Returns the steps done."""
    steps = []
    trainer.callbacks.append(gradient_check(steps, check))
    if module is None:  # a compiled module has no truth value of its own
        module = lightning_module_class(net)()
    if dataloader is None:
        dataloader = torch.utils.data.DataLoader(random_batches(rank), batch_size=None)
    trainer.fit(module, dataloader)
    return steps


def sequence_module():
    """A LightningModule over batches of token ids, padded with their lengths or not: the
    mean of their embeddings, squared."""
    import lightning.pytorch as pl

    class Sequences(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.embedding = torch.nn.Embedding(12, 4)

        def training_step(self, batch, batch_idx):
            padded, _lengths = batch
            return self.embedding(padded).mean().pow(2)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Sequences()


def gradient_check(steps: list, check: bool = True):
    """A Lightning callback that counts each optimizer step into `steps`, asserting first that
    the module's gradients are equal across ranks (unless `check` is off)."""
    import lightning.pytorch as pl

    class CheckGradients(pl.Callback):
        def on_before_optimizer_step(self, trainer, pl_module, optimizer):
            if check:
                assert grads_match_across_ranks(pl_module), f"step {len(steps)}: gradients differ"
            steps.append(trainer.global_step)

    return CheckGradients()


def lightning_fix(scenario, values=None, **fit):
    """The `main` of a fixed Lightning scenario: the entry's snippet for Lightning, rendered
    with `values` as the wizard renders it, builds the Trainer that fits the tiny module
    (`fit`: fit_lightning's options, e.g. unused=True)."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        work_in_temporary_directory()
        code = fix_snippet(scenario.slug, *scenario.snippet, **(values or {}))
        with lightning_on_this_machine(accelerator="cpu", devices=world_size):
            trainer = run_snippet(code)["trainer"]
        report_equal_gradients(fit_lightning(trainer, rank, **fit), rank)

    return main


def lightning_fit_fix(scenario):
    """The `main` of a fixed Lightning scenario whose snippet builds the Trainer and calls
    `trainer.fit(LitModel())` itself: LitModel is the user's module, lightning_module_class
    with its own data."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        work_in_temporary_directory()
        steps = []
        # "auto" finds one device on a CPU: the machine the snippet is for has one per process.
        with lightning_on_this_machine(auto_devices=world_size, callbacks=[gradient_check(steps)]):
            code = fix_snippet(scenario.slug, *scenario.snippet)
            run_snippet(code, LitModel=lightning_module_class(rank=rank))
        report_equal_gradients(steps, rank)

    return main
