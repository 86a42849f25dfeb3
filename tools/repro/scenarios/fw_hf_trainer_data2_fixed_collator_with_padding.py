"""Fix, in the Hugging Face Trainer: the entry's own snippet (the Trainer built with
data_collator=DataCollatorWithPadding(tokenizer)), rendered as the wizard renders it, with a
tokenizer built in memory, trains on the same examples of two lengths on two CPU processes under
torchrun: every batch arrives padded to 12 with its attention mask, with gradients equal across
ranks before every optimizer step."""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import (
    SequenceRegressor,
    TokenSequences,
    script_arguments,
    tiny_tokenizer,
    train_the_snippet_s_trainer,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="collate-tensor-size-mismatch",
    variant="hf-trainer-fixed-collator-with-padding",
    description="fix in transformers 5.24.0: the snippet's DataCollatorWithPadding(tokenizer)",
    expect="complete",
    role=FIXED,
    key_text=("batches padded to 12", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("pad-in-collate", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out")
    script_arguments(args, batch_size=4)
    model = SequenceRegressor()
    snippet = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        model=model,
        args=args,
        train_dataset=TokenSequences(rank),
        tokenizer=tiny_tokenizer(),
    )
    steps = train_the_snippet_s_trainer(snippet["trainer"], model)
    assert model.shapes and all(shape == (4, 12) for shape in model.shapes), model.shapes
    if rank == 0:
        print(f"{len(model.shapes)} batches padded to 12")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
