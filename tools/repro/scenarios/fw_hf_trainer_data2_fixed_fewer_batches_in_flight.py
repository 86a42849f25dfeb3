"""Fix, in the Hugging Face Trainer: the entry's own snippet (dataloader_num_workers=1,
dataloader_prefetch_factor=1), rendered as the wizard renders it for one worker, trains on the
same 4 MiB batches in the same 16 MiB tmpfs over /dev/shm on two CPU processes under torchrun,
through the epoch, with gradients equal across ranks before every optimizer step."""

from tools.repro.data_support import private_shm
from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import FieldsModel, FrameFields, train_hf_on
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.scenarios.data_shm_small_tmpfs import SHM_SIZE
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="hf-trainer-fixed-fewer-batches-in-flight",
    description="fix in transformers 5.24.0: the snippet's one worker, prefetch factor 1",
    expect="complete",
    role=FIXED,
    key_text=("24 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("fewer-batches-in-flight", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    private_shm(SHM_SIZE)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    with hf_trainer_on_this_machine():
        args = run_snippet(code)["args"]
    assert (args.dataloader_num_workers, args.dataloader_prefetch_factor) == (1, 1)
    steps, _ = train_hf_on(args, FieldsModel(), FrameFields(rank, count=32))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
