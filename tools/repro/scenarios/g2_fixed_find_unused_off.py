"""Fix: find_unused_parameters off when every parameter is used (the entry's snippet).

The model of g2_find_unused_all_used (every parameter used in every iteration), trained by the
entry's plain-PyTorch find-unused-off snippet, which wraps it in DDP without
find_unused_parameters: no graph walk after each forward, and none of the reducer's warning
that the walk found nothing.  That warning is a c10 warning printed to file descriptor 2 by the
autograd thread, so the run reads what the snippet writes there.  Gradients are compared across
ranks after every optimizer step.
"""

import os
import sys
import tempfile

import torch

from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch,
)
from tools.repro.models import MLPLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="fixed-find-unused-off",
    description="the entry's snippet: same model, find_unused_parameters off; no warning",
    expect="complete",
    role=FIXED,
    key_text=("3 steps done, no unused-parameter warning, gradients equal across ranks",),
    snippet=("find-unused-off", "pytorch"),
)

STEPS = 3
WARNING = "find_unused_parameters=True was specified in DDP constructor"


def stderr_of(run):
    """Call `run()` and return what it wrote to file descriptor 2, passing it on there too."""
    with tempfile.TemporaryFile() as captured:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(captured.fileno(), 2)
        try:
            run()
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        text = captured.read().decode(errors="replace")
    sys.stderr.write(text)
    return text


def main(rank, world_size):
    torch.manual_seed(0)
    model = MLPLoss()
    steps = check_every_optimizer_step(model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, scheduler="no")
    written = stderr_of(
        lambda: run_snippet(code, model=model, batch=torch.randn(8, 4), num_training_steps=STEPS)
    )
    assert WARNING not in written, "the reducer still warns about find_unused_parameters"
    assert len(steps) == STEPS, steps
    if rank == 0:
        print(f"{STEPS} steps done, no unused-parameter warning, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
