"""The entry's own Trainer snippet for bounding host memory per host
(TrainingArguments(dataloader_num_workers=2)), rendered as the wizard renders it: the Trainer
trains with it on two CPU processes under torchrun, two DataLoader worker processes each, with
gradients equal across ranks before every optimizer step (the batch size is the lab's tiny
one, not the snippet's 16). What it checks is that the snippet works in the pinned
transformers; the out-of-memory kill is not provoked.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="hf-trainer-fixed-two-loader-workers",
    description="fix in transformers 5.24.0: the snippet, dataloader_num_workers=2",
    expect="complete",
    role=FIXED,
    key_text=("dataloader_num_workers: 2", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("bound-host-memory-per-host", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    if rank == 0:
        print("dataloader_num_workers:", args.dataloader_num_workers)
    report_equal_gradients(train_hf(args, rank), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
