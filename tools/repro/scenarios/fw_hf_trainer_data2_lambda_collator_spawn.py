"""The Hugging Face Trainer with one DataLoader worker (dataloader_num_workers=1), the start
method set to spawn (the default on macOS and Windows), and a lambda as data_collator (padding
with the tokenizer), two CPU processes under torchrun: the Trainer's first iteration of its
loader pickles the collator for the worker, and pickle refuses the lambda."""

import torch.multiprocessing as mp
from transformers import Trainer, TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import (
    SequenceRegressor,
    TokenSequences,
    script_arguments,
    tiny_tokenizer,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="multiprocessing-spawn-pickle",
    variant="hf-trainer-lambda-data-collator-spawn",
    description="transformers 5.24.0 Trainer: data_collator=lambda, one worker, start method spawn",
    expect="fail",
    role=BROKEN,
    key_text=("Can't pickle local object 'main.<locals>.<lambda>'", "transformers/trainer.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    mp.set_start_method("spawn", force=True)
    tokenizer = tiny_tokenizer()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", dataloader_num_workers=1)
    script_arguments(args, batch_size=4)
    trainer = Trainer(
        model=SequenceRegressor(),
        args=args,
        train_dataset=TokenSequences(rank),
        data_collator=lambda features: tokenizer.pad(features, return_tensors="pt"),
    )
    trainer.train()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
