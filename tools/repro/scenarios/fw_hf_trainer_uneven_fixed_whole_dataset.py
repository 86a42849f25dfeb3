"""Fix, in the Hugging Face Trainer: the entry's own snippet (the Trainer built over the whole
dataset, the same 34 examples on every rank), rendered as the wizard renders it, trains on two
CPU processes under torchrun: Accelerate's shard of the Trainer's loader gives each rank 9 of
the 17 batches (rank 1's last one wraps around to the first examples), so in one epoch at 4
accumulation steps both take the same 3 optimizer steps, with gradients equal across ranks
before each.
"""

from tools.repro.framework_support import (
    RegressionModel,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import (
    script_arguments_for_the_snippet,
    train_the_snippet_s_trainer,
)
from tools.repro.fw_uneven_support import BATCH_SIZE, whole_dataset
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    variant="hf-trainer-fixed-whole-dataset",
    description="fix in the transformers 5.24.0 Trainer: the whole dataset on every rank",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("join-uneven-inputs", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    model = RegressionModel()
    with script_arguments_for_the_snippet(BATCH_SIZE, num_train_epochs=1):
        trainer = run_snippet(code, model=model, train_dataset=whole_dataset())["trainer"]
    steps = train_the_snippet_s_trainer(trainer, model)
    assert len(steps) == 3, steps  # 9 batches a rank at 4 accumulation steps: 4 + 4 + 1
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
