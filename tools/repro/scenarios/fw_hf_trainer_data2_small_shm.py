"""The Hugging Face Trainer with four DataLoader workers (dataloader_num_workers=4, each keeping
two 4 MiB batches in flight by default) where /dev/shm is a 16 MiB tmpfs (a private mount
namespace per rank, data_support.private_shm, as a container's small /dev/shm), two CPU
processes under torchrun. The Trainer's default_data_collator builds each batch in the worker's
own memory, so the worker fails only when its queue's feeder thread moves the batch into shared
memory: that thread prints "unable to allocate shared memory(shm) for file </torch_...>: No space
left on device (28)", the batch never arrives, and the Trainer's loop waits for it with no timeout
(TrainingArguments has no dataloader timeout). The ranks hang; faulthandler, as a user debugging a
hang would set it, dumps their stacks (the Trainer's loop waiting on the DataLoader) after 20 s and
ends them."""

import faulthandler

from transformers import TrainingArguments

from tools.repro.data_support import private_shm
from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import FieldsModel, FrameFields, train_hf_on
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.scenarios.data_shm_small_tmpfs import SHM_SIZE

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="hf-trainer-small-tmpfs-over-dev-shm",
    description="transformers 5.24.0 Trainer: four workers, 4 MiB batches, a 16 MiB /dev/shm",
    expect="fail",
    role=BROKEN,
    key_text=(
        "unable to allocate shared memory(shm) for file",
        "No space left on device (28)",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)

HANG_S = 20


def main(rank, world_size):
    work_in_temporary_directory()
    private_shm(SHM_SIZE)
    faulthandler.dump_traceback_later(HANG_S, exit=True)
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", dataloader_num_workers=4)
    train_hf_on(args, FieldsModel(), FrameFields(rank, count=32), check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
