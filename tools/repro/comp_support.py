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
