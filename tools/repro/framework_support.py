"""What the lab's framework scenarios share: a tiny model for each framework, and the lines of
the user's script that an entry's snippet leaves out.

A framework snippet shows only the arguments the fix changes (`pl.Trainer(strategy=...,
accumulate_grad_batches=4)`); the script around it also names the machine (two CPU processes
here) and the model, the data and the optimizer. The scenarios run under torchrun, which
starts one process per rank as a user's launch script does, and every framework here finds the
ranks in torchrun's environment. Each one runs a few steps of the same 4 -> 8 -> 1 network on
random data, so a run takes the frameworks' import time and little more.

What only one framework's scenarios share lives beside it: lightning_support.py,
accelerate_support.py, and distill_support.py for the distillation setups of every framework.
Only the lab imports these modules (the site never imports a framework): each import costs
seconds.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn

from tools.repro.harness import grads_match_across_ranks

MICRO_BATCHES = 8  # two optimizer steps at the entries' 4 accumulation steps


def work_in_temporary_directory() -> None:
    """The snippets name `out/` and Lightning `lightning_logs/` for what they write: never in
    the repository. One directory for every run, so that none piles up (the workers end with
    os._exit, which leaves no chance to remove one)."""
    directory = Path(tempfile.gettempdir()) / "faultline-lab-frameworks"
    directory.mkdir(exist_ok=True)
    os.chdir(directory)


def random_batches(rank: int, count: int = MICRO_BATCHES):
    """Different data on every rank, so that unsynchronised gradients would differ."""
    generator = torch.Generator().manual_seed(rank)
    return [torch.randn(4, 4, generator=generator) for _ in range(count)]


def network() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


def tanh_network() -> nn.Module:
    """g2_create_graph_backward's network: Tanh, so that a gradient penalty's second derivatives
    are not zero."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


class Unused(nn.Module):
    """The network beside a layer no forward uses (a head kept for later, say): DDP without
    find_unused_parameters waits for its gradient at every step."""

    def __init__(self):
        super().__init__()
        self.net = network()
        self.head_for_later = nn.Linear(4, 1)

    def forward(self, batch):
        return self.net(batch)


class AuxHeadLater(nn.Module):
    """The network and an auxiliary head its forward adds from the second call on (a loss term
    switched on after a warm-up step): the first iteration's graph is not every iteration's."""

    def __init__(self):
        super().__init__()
        self.net = network()
        self.aux_head = nn.Linear(4, 1)
        self.calls = 0

    def forward(self, batch):
        self.calls += 1
        output = self.net(batch)
        return output + self.aux_head(batch) if self.calls > 1 else output


class TwoHeads(nn.Module):
    """Two heads on one trunk, each with a loss of its own (loss_fn_a, loss_fn_b): the script
    that backwards the two losses separately reports the trunk's gradients twice."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.trunk = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, batch):
        hidden = torch.relu(self.trunk(batch))
        return self.head_a(hidden), self.head_b(hidden)


def loss_fn_a(output):
    return output.pow(2).mean()


def loss_fn_b(output):
    return output.abs().mean()


class ReentrantCheckpointed(nn.Module):
    """The network with its second layer under reentrant activation checkpointing: that layer's
    parameters are outside the graph the forward builds and get their gradients in a second,
    inner backward."""

    def __init__(self):
        super().__init__()
        self.net = network()

    def forward(self, batch):
        from torch.utils.checkpoint import checkpoint

        hidden = self.net[0](batch)
        return checkpoint(lambda h: self.net[2](self.net[1](h)), hidden, use_reentrant=True)


@contextlib.contextmanager
def arguments_the_script_gives(cls, **arguments):
    """Objects of `cls` built inside get `arguments` for those their caller leaves out: the
    lines of the user's script that an entry's snippet does not show."""
    original = cls.__init__

    def __init__(self, *args, **kwargs):
        original(self, *args, **{**arguments, **kwargs})

    cls.__init__ = __init__
    try:
        yield
    finally:
        cls.__init__ = original


# --- The Hugging Face Trainer ----------------------------------------------------------------


class RegressionModel(nn.Module):
    """What the Trainer expects of a model: keyword inputs, a `loss` in the output."""

    def __init__(self, net=network):
        super().__init__()
        self.net = net()

    def forward(self, x, labels=None):
        output = self.net(x)
        return {"loss": nn.functional.mse_loss(output, labels), "logits": output}


def regression_dataset(rank: int):
    """Different examples on every rank, so that equal gradients prove the synchronisation
    whether or not the Trainer's sampler splits them."""
    generator = torch.Generator().manual_seed(rank)
    return [
        {"x": torch.randn(4, generator=generator), "labels": torch.randn(1, generator=generator)}
        for _ in range(MICRO_BATCHES * 2)
    ]


def tiny_gpt2():
    """A Hugging Face model built from a small config (nothing downloaded), for the fixes that
    go through PreTrainedModel's own checkpointing switch."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=32, n_positions=16, n_embd=8, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=0
    )
    return GPT2LMHeadModel(config)


def reentrant_gpt2():
    """tiny_gpt2 under reentrant activation checkpointing, switched on by the script itself."""
    model = tiny_gpt2()
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": True})
    return model


def token_dataset(rank: int):
    """Different token sequences on every rank, their own labels (a language model's)."""
    generator = torch.Generator().manual_seed(rank)
    rows = [torch.randint(0, 32, (8,), generator=generator) for _ in range(MICRO_BATCHES * 2)]
    return [{"input_ids": row, "labels": row} for row in rows]


def train_hf(
    args,
    rank: int,
    net=network,
    check: bool = True,
    language_model=None,
    trainer_class=None,
    **script,
):
    """Train `RegressionModel(net)` (or `language_model()`, e.g. tiny_gpt2, on token_dataset)
    with the Trainer (or the script's own subclass of it, `trainer_class`, given `script`
    besides) and `args`; asserts equal gradients across ranks before every optimizer step
    unless `check` is off (a broken run). Returns the steps done."""
    from transformers import Trainer, TrainerCallback

    model = language_model() if language_model else RegressionModel(net)
    steps = []

    class CheckGradients(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            if check:
                assert grads_match_across_ranks(model), (
                    f"step {state.global_step}: gradients differ"
                )
            steps.append(state.global_step)

    args.report_to = []
    args.save_strategy = "no"
    args.per_device_train_batch_size = 2
    args.disable_tqdm = True
    trainer = (trainer_class or Trainer)(
        model=model,
        args=args,
        train_dataset=token_dataset(rank) if language_model else regression_dataset(rank),
        callbacks=[CheckGradients()],
        **script,
    )
    trainer.train()
    return steps


def hf_trainer_on_this_machine():
    """The same for the Trainer: without `use_cpu=True` the TrainingArguments of a CPU machine
    under torchrun set up no process group (transformers 5.24.0), and the ranks train apart."""
    from transformers import TrainingArguments

    return arguments_the_script_gives(TrainingArguments, use_cpu=True)


def report_equal_gradients(steps, rank: int) -> None:
    """What every fixed framework scenario prints: the optimizer steps it took, each checked
    for gradients equal across ranks."""
    assert steps, "no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


def hf_trainer_fix(scenario, values=None, **train):
    """The `main` of a fixed Trainer scenario: the entry's snippet builds the TrainingArguments
    the tiny model trains with (`train`: train_hf's options)."""
    from tools.repro.snippets import fix_snippet, run_snippet

    def main(rank, world_size):
        work_in_temporary_directory()
        code = fix_snippet(scenario.slug, *scenario.snippet, **(values or {}))
        with hf_trainer_on_this_machine():
            args = run_snippet(code)["args"]
        report_equal_gradients(train_hf(args, rank, **train), rank)

    return main
