"""What the torch.compile family's lab scenarios share (tools/repro/scenarios/comp_*.py).

Dynamo's tracing (graph breaks, guards, recompilations, Unsupported) does not depend on the
backend that compiles the captured graphs, and Inductor's C++ compilation of every graph costs
tens of seconds on the lab's 2 cores. The Dynamo scenarios' fixed runs therefore run the
entry's snippet as written, with torch.compile's default backend switched to "eager" while it
runs (`eager_by_default`); only the Inductor scenarios compile with Inductor.
"""

from __future__ import annotations

import contextlib
import functools


@contextlib.contextmanager
def eager_by_default():
    """torch.compile(...) without a backend= traces with the eager backend inside the block."""
    import torch

    original = torch.compile

    @functools.wraps(original)
    def compile_eager(*args, **kwargs):
        kwargs.setdefault("backend", "eager")
        return original(*args, **kwargs)

    torch.compile = compile_eager
    try:
        yield
    finally:
        torch.compile = original


def data_dependent_gate(x):
    """The eager function the torch.where fixes replace: a Python branch on a tensor's value."""
    if x.sum() > 0:
        return x * 2
    return -x


def train_like_the_eager_gate(scenario, rank, steps=3):
    """Run the entry's snippet (its `compiled` function, traced with the eager backend) for a
    few training steps whose batches take both sides of the branch, each output checked
    against data_dependent_gate's."""
    import torch
    import torch.nn as nn

    from tools.repro.snippets import fix_snippet, run_snippet

    with eager_by_default():  # Dynamo's tracing is the fix
        compiled = run_snippet(fix_snippet(scenario.slug, *scenario.snippet))["compiled"]
    torch.manual_seed(rank)
    layer = nn.Linear(8, 8)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    for step in range(steps):
        optimizer.zero_grad()
        h = layer(torch.randn(4, 8) + (1 if step % 2 else -1))
        out = compiled(h)
        torch.testing.assert_close(out, data_dependent_gate(h))
        out.pow(2).mean().backward()
        optimizer.step()
