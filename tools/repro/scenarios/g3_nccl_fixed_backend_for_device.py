"""DIST-007 fix: choose the backend from the hardware (gloo without a GPU).

Each worker runs the entry's own plain-PyTorch snippet, which asks for nccl only when CUDA and
NCCL are there (the broken run hard-coded nccl on this CPU build) and so initialises gloo here,
then trains with equal gradients.  The module does its own launcher plumbing, since ``launch()``
would create a gloo group before the snippet could choose: under torchrun the workers run the
snippet as they are; started with plain ``python -m``, the spawned workers export RANK,
WORLD_SIZE and LOCAL_RANK the way torchrun does.
"""

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="fixed-backend-for-device",
    description="fix (the entry's snippet): nccl only with CUDA and NCCL, else gloo; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("backend gloo", "gradients equal across ranks"),
    snippet=("backend-for-device", "pytorch"),
)


def main(rank, world_size):
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model  # DDP wraps these parameters: theirs are synced
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"backend {names['backend']}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
