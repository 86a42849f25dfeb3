"""Fix, in Accelerate: the entry's own Accelerate snippet (Accelerator() creates the process
group, prepare() wraps what the script built), rendered as the wizard renders it, then the
script's loop on two CPU processes under torchrun, with gradients equal across ranks at every
optimizer step.
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="accelerate-fixed-init-once",
    description="fix in Accelerate 1.15.0: the entry's snippet, no init_process_group() of its own",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("init-once", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), **script)
    accelerate_train(names["accelerator"], names["model"], names["optimizer"], names["dataloader"])
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
