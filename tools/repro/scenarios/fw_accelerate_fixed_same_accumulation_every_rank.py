"""Fix, in Accelerate: the entry's own snippet (one gradient_accumulation_steps for every rank,
even_batches=True, the loop under accelerator.accumulate()), rendered as the wizard renders it,
trains on two CPU processes under torchrun, with gradients equal across ranks at every
optimizer step.
"""

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.framework_support import report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    variant="accelerate-fixed-same-accumulation-every-rank",
    description="fix in Accelerate 1.15.0: the snippet, one gradient_accumulation_steps",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-window-every-rank", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    steps = check_every_optimizer_step(names["model"])
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    with accelerate_on_this_machine():
        run_snippet(code, **names)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
