"""The Hugging Face Trainer with one DataLoader worker (dataloader_num_workers=1) and the default
file_descriptor sharing strategy, on examples of 32 small tensors, a model that keeps every batch
it sees, and an open-file limit 64 above what the rank had open at the first step (a low
``ulimit -n``), two CPU processes under torchrun: within a few batches the rank cannot receive
the file descriptor the worker sends."""

from transformers import TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import (
    FieldsModel,
    TensorFields,
    limit_files_at_the_first_step_hf,
    train_hf_on,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.scenarios.data_too_many_open_files import HEADROOM

SCENARIO = Scenario(
    slug="dataloader-too-many-open-files",
    variant="hf-trainer-file-descriptor-strategy-low-ulimit",
    description="transformers 5.24.0 Trainer: batches of 33 tensors kept, open-file limit 64 above",
    expect="fail",
    role=BROKEN,
    key_text=("OSError: [Errno 24] Too many open files", "EOFError", "transformers/trainer.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", dataloader_num_workers=1)
    callbacks = [limit_files_at_the_first_step_hf(HEADROOM)]
    train_hf_on(args, FieldsModel(keep=True), TensorFields(rank), check=False, callbacks=callbacks)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
