"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments, the Trainer and
train() inside main(), called under ``if __name__ == "__main__":``), rendered as the wizard
renders it for one worker and run as ``__main__`` after the same model and dataset, with the
start method spawn, on two CPU processes under torchrun: the worker's import of the script
starts nothing, and the run trains with gradients equal across ranks at every optimizer step."""

import torch.multiprocessing as mp

from tools.repro.data_support import run_as_main
from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_ckpt2_support import trainers_checked
from tools.repro.fw_data2_support import script_arguments_for_the_snippet
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet

SCENARIO = Scenario(
    slug="multiprocessing-spawn-main-guard",
    variant="hf-trainer-fixed-main-guard",
    description="fix in transformers 5.24.0: the snippet's main() under the main guard, spawn",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("add-main-guard", "hf_trainer"),
    preload=("transformers.trainer",),
)

HEADER = """
import os

from tools.repro.framework_support import RegressionModel, regression_dataset

model = RegressionModel()
train_dataset = regression_dataset(int(os.environ["RANK"]))
"""


def main(rank, world_size):
    work_in_temporary_directory()
    mp.set_start_method("spawn", force=True)
    steps = []
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    with script_arguments_for_the_snippet(num_train_epochs=1), trainers_checked(steps):
        run_as_main(code, HEADER)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
