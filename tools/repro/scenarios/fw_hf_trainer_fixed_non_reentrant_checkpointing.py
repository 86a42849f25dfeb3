"""Fix, in the Hugging Face Trainer: the entry's own snippet (gradient_checkpointing_kwargs=
{"use_reentrant": False}), rendered as the wizard renders it, trains the same GPT-2 on two CPU
processes under torchrun with the script's ddp_find_unused_parameters=True kept, gradients
equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    arguments_the_script_gives,
    tiny_gpt2,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="hf-trainer-fixed-non-reentrant-checkpointing",
    description="fix in the transformers 5.24.0 Trainer: use_reentrant=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("non-reentrant-checkpointing", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    # The broken script's find_unused_parameters stays: the fix is the checkpointing alone.
    with arguments_the_script_gives(
        TrainingArguments, use_cpu=True, ddp_find_unused_parameters=True
    ):
        args = run_snippet(code)["args"]
    steps = train_hf(args, rank, language_model=tiny_gpt2)
    assert steps, "the Trainer took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
