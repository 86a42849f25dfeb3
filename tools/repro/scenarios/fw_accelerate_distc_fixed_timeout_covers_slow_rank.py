"""Fix, in Accelerate: the entry's own snippet (InitProcessGroupKwargs(timeout=60 minutes)),
rendered as the wizard renders it, builds the Accelerator that trains the model on two CPU
processes under torchrun while rank 0 does 5 s of work of its own after the first step (longer
than the broken run's timeout), with gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_distc_support import accelerate_train_with_late_rank
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="accelerate-fixed-timeout-covers-slow-rank",
    description="fix in Accelerate 1.15.0: InitProcessGroupKwargs(timeout=60 min), rank 0 busy 5 s",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-collectives-on-every-rank", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    accelerate_train_with_late_rank(
        accelerator,
        rank,
        *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
    )
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
