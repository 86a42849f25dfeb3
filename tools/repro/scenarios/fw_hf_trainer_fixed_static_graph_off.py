"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments with
ddp_static_graph=False), rendered as the wizard renders it, trains the same model on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="hf-trainer-fixed-static-graph-off",
    description="fix in the transformers 5.24.0 Trainer: the snippet, ddp_static_graph=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "hf_trainer"),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    with hf_trainer_on_this_machine():
        args = run_snippet(code)["args"]
    steps = train_hf(args, rank)
    assert steps, "the Trainer took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
