"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_find_unused_parameters=True),
rendered as the wizard renders it, trains the model with the unused layer on two CPU processes
under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="hf-trainer-fixed-find-unused-parameters",
    description="fix in the transformers 5.24.0 Trainer: ddp_find_unused_parameters=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "hf_trainer"),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    with hf_trainer_on_this_machine():
        args = run_snippet(code)["args"]
    steps = train_hf(args, rank, unused=True)
    assert steps, "the Trainer took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
