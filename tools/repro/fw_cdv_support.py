"""What the framework scenarios of the compile and devices entries share (fw_*_cdv_*): how the
plain-PyTorch lab scenarios provoke each failure (comp_*, dev_*), taken into Lightning 2.6.6,
the Hugging Face Trainer of transformers 5.24.0 and Accelerate 1.15.0.

The Inductor scenarios give CXX the name of a compiler that does not exist, as
comp_inductor_no_cxx_compiler does (a slim image without build tools), in their SCENARIO's env
(the registry reads a SCENARIO's literals only): Inductor's first compilation fails at once,
and a fix that falls back to eager trains without compiling.
"""

from __future__ import annotations

import contextlib
import functools

import torch


class EagerFallbacks:
    """What suppress_errors does, kept: Dynamo logs each frame it could not compile as a WARNING
    of torch._dynamo.convert_frame ("WON'T CONVERT <frame> ... due to:" with the backend's
    traceback) and runs the frame in eager mode. The lab's fixed runs must print no traceback,
    so this filter takes those records off the log; `report` prints one line for them, with
    the error that caused them."""

    LOGGER = "torch._dynamo.convert_frame"

    def __init__(self):
        import logging

        self.errors = []
        logging.getLogger(self.LOGGER).addFilter(self.filter)

    def filter(self, record) -> bool:
        if record.exc_info and "WON'T CONVERT" in record.getMessage():
            error = record.exc_info[1]
            self.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
            return False
        return True

    def report(self, rank: int) -> None:
        assert self.errors, "Dynamo compiled every frame: the failure did not occur"
        if rank == 0:
            print(f"{len(self.errors)} frame(s) run in eager mode after {self.errors[0]}")


# --- dynamo-unsupported: a data-dependent branch under fullgraph=True ---------------------


class GatedNetwork(torch.nn.Module):
    """framework_support's network followed by comp_support's data_dependent_gate (a Python
    branch on the output's value): Dynamo cannot put the branch into one graph, so
    fullgraph=True refuses it and the default makes it a graph break."""

    def __init__(self):
        super().__init__()
        from tools.repro.framework_support import network

        self.net = network()

    def forward(self, batch):
        from tools.repro.comp_support import data_dependent_gate

        return data_dependent_gate(self.net(batch))


def report_graph_breaks(rank: int, expected: str = "Data-dependent branching") -> None:
    """Print the graph break Dynamo took at the construct (`expected`, the first line of its
    reason in Dynamo's counters), asserting there was one: the fixed runs of
    dynamo-unsupported train through the break that fullgraph=True refused. (DDP's own
    forward adds breaks of its own, which Dynamo takes under any wrapper.)"""
    from torch._dynamo.utils import counters

    reasons = [reason.splitlines()[0] for reason in counters["graph_break"]]
    assert expected in reasons, f"no graph break at the construct: {reasons}"
    if rank == 0:
        print(f"graph break: {expected} (run in Python, graphs compiled around it)")


@contextlib.contextmanager
def eager_backend():
    """torch.compile(...) inside the block traces with the eager backend whatever backend it is
    given (comp_support.eager_by_default only fills in a missing one; the frameworks pass
    "inductor" themselves). Dynamo's tracing, its graph breaks, guards and recompilations do
    not depend on the backend, and Inductor's C++ compilation of each graph takes over a
    minute of the lab's 2 shared cores; the Dynamo fixes are in the tracing."""
    original = torch.compile

    @functools.wraps(original)
    def compile_eager(*args, **kwargs):
        kwargs["backend"] = "eager"
        return original(*args, **kwargs)

    torch.compile = compile_eager
    try:
        yield
    finally:
        torch.compile = original


# --- dynamo-recompile-limit: one compiled step over many sequence lengths -----------------

# comp_recompile_limit_varying_lengths's twelve lengths: more than the default limit of 8.
LENGTHS = range(9, 21)


def varying_length_batches(rank: int):
    """A loader of batches of (2, length, 4) for each of LENGTHS, this rank's own data: under
    static shapes each length is a new guard, so a new compilation."""
    generator = torch.Generator().manual_seed(rank)
    batches = [torch.randn(2, length, 4, generator=generator) for length in LENGTHS]
    return torch.utils.data.DataLoader(batches, batch_size=None)


class RecompileWarnings:
    """The warning Dynamo logs when it hits the recompile limit (torch._dynamo's
    convert_frame logger), counted as it is logged and left on the log."""

    TEXT = "torch._dynamo hit config.recompile_limit"

    def __init__(self):
        import logging

        self.count = 0
        logging.getLogger("torch._dynamo.convert_frame").addFilter(self.filter)

    def filter(self, record) -> bool:
        self.count += self.TEXT in record.getMessage()
        return True


# --- tensors-on-different-devices: a tensor made in training_step on another device -------


def float32_pairs(rank: int):
    """A loader of (features, targets) batches, float32, different on every rank."""
    from tools.repro.framework_support import MICRO_BATCHES

    generator = torch.Generator().manual_seed(rank)
    batches = [
        (torch.randn(4, 4, generator=generator), torch.randn(4, 1, generator=generator))
        for _ in range(MICRO_BATCHES)
    ]
    return torch.utils.data.DataLoader(batches, batch_size=None)


def mask_on_other_device(self, batch, batch_idx):
    """The user's training_step that makes a mask on a device of its own choosing, not the
    module's: "meta" stands in for the second device a CPU-only machine lacks (as in
    dev_input_on_other_device), where the GPU script would say "cuda" or leave the mask on
    the CPU."""
    inputs, targets = batch
    mask = torch.ones(inputs.shape[0], device="meta")
    return self.loss_fn(self(inputs) * mask[:, None], targets)
