"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_find_unused_parameters=False),
rendered as the wizard renders it, trains the GPT-2 of the broken
fw_hf_trainer_reentrant_checkpoint_find_unused with its reentrant checkpointing kept, on two CPU
processes under torchrun, gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    arguments_the_script_gives,
    report_equal_gradients,
    tiny_gpt2,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="hf-trainer-fixed-find-unused-parameters-off",
    description="fix in the transformers 5.24.0 Trainer: ddp_find_unused_parameters=False, "
    "reentrant checkpointing kept",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters-off", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    # The broken script's reentrant checkpointing stays: the fix is find_unused_parameters alone.
    with arguments_the_script_gives(
        TrainingArguments,
        use_cpu=True,
        gradient_checkpointing=True,
        gradient_checkpointing_kwargs={"use_reentrant": True},
    ):
        args = run_snippet(code)["args"]
    report_equal_gradients(train_hf(args, rank, language_model=tiny_gpt2), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
