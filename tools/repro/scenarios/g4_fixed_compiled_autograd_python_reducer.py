"""Fix: the entry's snippet, optimize_ddp="python_reducer" set before wrapping, so compiled
autograd traces the gradient all-reduces instead of meeting the C++ reducer's hooks.

The model of g4_compiled_autograd_cpp_reducer, trained by the entry's plain-PyTorch
python-reducer-before-wrapping snippet: it turns compiled autograd on and runs each step's forward
and backward inside torch.compile (default backend), so the backward is compiled as in the broken
run.  This machine has no GPU, so the snippet wraps without device_ids.  Without the Python
reducer line the same snippet raises the broken run's "not compatible with C++ DDP Reducer";
with it, every step completes with gradients equal across ranks.
"""

import torch

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.models import MLPLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="fixed-python-reducer",
    description="fix (the entry's snippet): python_reducer before DDP(); compiled, grads equal",
    expect="complete",
    role=FIXED,
    key_text=("2 compiled steps done, gradients equal across ranks",),
    snippet=("python-reducer-before-wrapping", "pytorch"),
)

STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    model = MLPLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(
        code,
        model=model,
        optimizer=optimizer,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        local_rank=rank,
    )
    assert len(steps) == STEPS, f"{len(steps)} optimizer steps"
    if rank == 0:
        print(f"{STEPS} compiled steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
