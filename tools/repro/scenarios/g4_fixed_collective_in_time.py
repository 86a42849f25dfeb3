"""Fix: every rank reaches the collective, within a timeout sized for the slowest rank.

Each worker runs the entry's own plain-PyTorch snippet: it creates the group with a timeout that
covers the slowest rank-local work, trains, has every rank call the all_reduce, and lets only
rank 0 write the checkpoint before the barrier.  Writing it takes longer here than the broken
run's whole process-group timeout (rank 1 waits at the barrier meanwhile), and every rank still
arrives.  The module does its own launcher plumbing, since ``launch()`` would create the group
before the snippet could set its timeout: under torchrun the workers run the snippet as they
are; started with plain ``python -m``, the spawned workers export RANK, WORLD_SIZE and LOCAL_RANK
the way torchrun does.
"""

import io
import time

import torch
import torch.distributed as dist

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch_without_group,
)
from tools.repro.models import LinearLoss
from tools.repro.scenarios.g4_gloo_timeout_straggler import SCENARIO as BROKEN_RUN
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="fixed-timeout-covers-slow-rank",
    description="fix (the entry's snippet): both ranks all_reduce, timeout covers the slow rank",
    expect="complete",
    role=FIXED,
    key_text=("metric [2.0, 2.0, 2.0, 2.0]",),
    snippet=("same-collectives-on-every-rank", "pytorch"),
)

SAVE_S = BROKEN_RUN.pg_timeout_s + 1  # longer than the broken run's timeout


def main(rank, world_size):
    torch.manual_seed(rank)
    model = LinearLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step, steps, saved = optimizer.step, [], []
    optimizer.step = lambda: steps.append(step())

    def save_checkpoint(model):  # rank-local work: a large checkpoint takes a while to write
        torch.save(model.state_dict(), io.BytesIO())
        time.sleep(SAVE_S)
        saved.append(rank)

    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(
        code,
        model=model,
        batch=torch.randn(8, 4),
        optimizer=optimizer,
        num_training_steps=3,
        metric=torch.ones(4),
        save_checkpoint=save_checkpoint,
    )
    assert len(steps) == 3, steps
    assert saved == ([0] if rank == 0 else []), saved
    if rank == 0:
        print(f"checkpoint written in {SAVE_S:.0f} s while rank 1 waited at the barrier")
        print(f"metric {names['metric'].tolist()}")
    dist.destroy_process_group()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
