"""The Hugging Face Trainer on tokenised examples of two lengths (9 and 12) with no
data_collator and no tokenizer given, so default_data_collator stacks input_ids, two CPU
processes under torchrun: torch.stack refuses the unequal shapes in the Trainer's loop."""

from transformers import TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import SequenceRegressor, TokenSequences, train_hf_on
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="collate-tensor-size-mismatch",
    variant="hf-trainer-default-collator-two-lengths",
    description="transformers 5.24.0 Trainer: default_data_collator over sequences of 9 and 12",
    expect="fail",
    role=BROKEN,
    key_text=("stack expects each tensor to be equal size", "transformers/data/data_collator.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out")
    train_hf_on(args, SequenceRegressor(), TokenSequences(rank), check=False, batch_size=4)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
