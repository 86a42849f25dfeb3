"""Fix, in the Hugging Face Trainer: the entry's own snippet (dataloader_num_workers named),
rendered as the wizard renders it for one worker, over a dataset that reads each image when it
is asked for and keeps none (no per-worker cache), trains under the same 256 MiB memory cgroup
on two CPU processes under torchrun, with gradients equal across ranks before every optimizer
step."""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import FieldsModel, ImageFields, StreamedImages, train_hf_on
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.mem_support import join_memory_cgroup
from tools.repro.scenarios.mem_dataloader_workers_keep_samples import LIMIT
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-worker-killed",
    variant="hf-trainer-fixed-no-per-worker-copies",
    description="fix in transformers 5.24.0: the snippet's one worker, no per-worker cache",
    expect="complete",
    role=FIXED,
    key_text=("6 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("fewer-workers-no-per-worker-copies", "hf_trainer"),
    fresh_processes=True,
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    with hf_trainer_on_this_machine():
        args = run_snippet(code)["args"]
    assert args.dataloader_num_workers == 1
    join_memory_cgroup(LIMIT)
    dataset = ImageFields(StreamedImages(rank))
    steps, _ = train_hf_on(args, FieldsModel(), dataset, batch_size=16)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
