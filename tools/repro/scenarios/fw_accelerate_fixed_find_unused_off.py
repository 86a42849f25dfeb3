"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
find_unused_parameters=False)), rendered as the wizard renders it, then the user's loop:
trains on two CPU processes under torchrun without the warning, gradients equal across ranks
at every optimizer step.
"""

from tools.repro.framework_support import accelerate_names, accelerate_on_this_machine
from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch_without_group,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="accelerate-fixed-find-unused-off",
    description="fix in Accelerate 1.15.0: the snippet, find_unused_parameters=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-off", "accelerate"),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    steps = check_every_optimizer_step(names["model"])
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    # The snippet builds the Accelerator; the script's own prepare and loop follow it.
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
    assert steps, "no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
