"""Fix, in Accelerate: the entry's own Accelerate snippet (a dummy forward before prepare(),
the optimizer built after it), rendered as the wizard renders it, then the script's loop on two
CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

import torch.nn as nn

from tools.repro.accelerate_support import accelerate_on_this_machine
from tools.repro.framework_support import random_batches, report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="accelerate-fixed-lazy-dummy-forward",
    description="fix in Accelerate 1.15.0: the entry's snippet, a dummy forward before prepare()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("dummy-forward-before-wrapping", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    model = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))
    batches = random_batches(rank)
    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model, example_batch=batches[0]
        )
    model, optimizer = names["model"], names["optimizer"]
    steps = check_every_optimizer_step(model)
    for batch in batches:
        names["accelerator"].backward(model(batch).pow(2).mean())
        optimizer.step()
        optimizer.zero_grad()
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
