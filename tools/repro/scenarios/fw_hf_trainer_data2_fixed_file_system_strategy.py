"""Fix, in the Hugging Face Trainer: the entry's own snippet (the file_system sharing strategy, set
at the top of the script), rendered as the wizard renders it, trains on the same kept batches of
33 tensors under the same open-file limit on two CPU processes under torchrun: every batch
arrives, with gradients equal across ranks before every optimizer step."""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import (
    FieldsModel,
    TensorFields,
    limit_files_at_the_first_step_hf,
    train_hf_on,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.scenarios.data_too_many_open_files import HEADROOM
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-too-many-open-files",
    variant="hf-trainer-fixed-file-system-strategy",
    description="fix in transformers 5.24.0: the snippet's file_system sharing strategy",
    expect="complete",
    role=FIXED,
    key_text=("48 batches kept", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("file-system-sharing-strategy", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_sharing_strategy="file_system")
    run_snippet(code)
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", dataloader_num_workers=1)
    model = FieldsModel(keep=True)
    callbacks = [limit_files_at_the_first_step_hf(HEADROOM)]
    steps, _ = train_hf_on(args, model, TensorFields(rank), callbacks=callbacks)
    assert len(model.kept) == 48, len(model.kept)
    if rank == 0:
        print(f"{len(model.kept)} batches kept")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
