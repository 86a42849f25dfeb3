"""The Hugging Face Trainer with one DataLoader worker (dataloader_num_workers=1) over a dataset
that caches every sample it reads (mem_dataloader_workers_keep_samples' CachingImages), each
rank and its worker in a memory cgroup that lets them charge 256 MiB more than the rank held
when it joined, two CPU processes under torchrun: the cache outgrows the limit within the epoch,
the kernel's out-of-memory killer ends the worker with SIGKILL, and the Trainer's loop reports
the worker killed by signal."""

from transformers import TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import FieldsModel, ImageFields, train_hf_on
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.mem_support import join_memory_cgroup
from tools.repro.scenarios.mem_dataloader_workers_keep_samples import LIMIT, CachingImages

SCENARIO = Scenario(
    slug="dataloader-worker-killed",
    variant="hf-trainer-dataloader-workers-keep-samples",
    description="transformers 5.24.0 Trainer: the worker caches every sample, 256 MiB cgroup",
    expect="fail",
    role=BROKEN,
    # The loop reports the kill as "is killed by signal: Killed" (its SIGCHLD handler) or, when
    # its read of the worker's queue fails first, "exited unexpectedly": the test takes either.
    key_text=("DataLoader worker (pid", "transformers/trainer.py"),
    launchers=("torchrun",),
    fresh_processes=True,
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", dataloader_num_workers=1)
    dataset = ImageFields(CachingImages())
    join_memory_cgroup(LIMIT)
    train_hf_on(args, FieldsModel(), dataset, check=False, batch_size=16)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
