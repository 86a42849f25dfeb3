"""Fix, in Accelerate: the entry's own Accelerate snippet (static_graph=False in
DistributedDataParallelKwargs, GradientAccumulationPlugin(num_steps=4)), rendered as the
wizard renders it, trains on two CPU processes under torchrun, with gradients equal across
ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch_without_group,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="accelerate-fixed-static-graph-off",
    description="fix in Accelerate 1.15.0: the entry's snippet, static_graph=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    steps = check_every_optimizer_step(names["model"])
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    with accelerate_on_this_machine():
        run_snippet(code, **names)
    assert steps, "the snippet took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
