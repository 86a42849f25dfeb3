"""Fix: every rank issues the same collectives, same order, same shapes (DETAIL stays on).

Runs the entry's own plain-PyTorch snippet with the broken run's per-rank statistic (4 counts on
rank 0, 5 on rank 1): it pads each rank's counts to the number of classes every rank knows, so
both all_reduce tensors of one shape and TORCH_DISTRIBUTED_DEBUG=DETAIL's fingerprint check
passes where it raised.  The model trains locally: DDP's constructor crashes under DETAIL on
this machine (see the lab's README), and the snippet's fix is in its collective.
"""

import torch

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="fixed-same-collectives-on-every-rank",
    description="fix (the entry's snippet): per-rank counts padded to one shape, DETAIL on",
    expect="complete",
    role=FIXED,
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    pg_timeout_s=10.0,
    key_text=("collectives agree: [2.0, 2.0, 2.0, 2.0, 1.0]",),
    snippet=("same-collectives-on-every-rank", "pytorch"),
)


def main(rank, world_size):
    torch.manual_seed(rank)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step, steps = optimizer.step, []
    optimizer.step = lambda: steps.append(step())
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(
        code,
        model=model,
        batch=torch.randn(8, 4),
        optimizer=optimizer,
        num_training_steps=3,
        num_classes=5,
        local_counts=torch.ones(4 if rank == 0 else 5),  # the broken run's per-rank sizes
    )
    assert len(steps) == 3, steps
    if rank == 0:
        print(f"collectives agree: {names['stats'].tolist()}")


if __name__ == "__main__":
    launch(main, SCENARIO)
