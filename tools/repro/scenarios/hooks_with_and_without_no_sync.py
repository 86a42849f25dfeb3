"""Side-by-side check: the same static_graph model with and without no_sync().

Rank 0 reports both outcomes, the way people post the comparison when asking
for help: the no_sync() accumulation step trips the assert (caught and
printed), and a fresh model trained without no_sync() works.  The script
itself completes.

The report lines carry the same "[rankN]: " prefix that torch.distributed's
excepthook puts on uncaught tracebacks (init_process_group installs it), so
they read like the traceback lines around them.  Plain print()/logging
output is NOT prefixed by torchrun or by torch.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="with-and-without-no-sync",
    description="static_graph=True: no_sync() step raises (caught, printed); control works",
    expect="complete",
    key_text=(
        "[rank0]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at",
        "[rank0]: No no_sync() context - works without error",
    ),
)


def make_model():
    torch.manual_seed(0)
    return DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), static_graph=True)


def main(rank, world_size):
    torch.manual_seed(rank)
    x = torch.randn(8, 4)

    # 1) gradient accumulation: first micro-batch inside no_sync()
    model = make_model()
    try:
        with model.no_sync():
            model(x).sum().backward()
        if rank == 0:
            print(f"[rank{rank}]: no_sync() context - works without error")
    except RuntimeError as e:
        if rank == 0:
            print(f"[rank{rank}]: RuntimeError: {e}")

    # 2) control: same model, every backward synchronised
    model = make_model()
    for _ in range(2):
        model(x).sum().backward()
    if rank == 0:
        print(f"[rank{rank}]: No no_sync() context - works without error")


if __name__ == "__main__":
    launch(main, SCENARIO)
