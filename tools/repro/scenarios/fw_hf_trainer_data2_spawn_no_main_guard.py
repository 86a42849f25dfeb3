"""A Hugging Face Trainer script without ``if __name__ == "__main__":`` (run as ``__main__`` with
runpy, as ``python train.py`` does) on a machine whose start method is spawn (macOS and
Windows), with one DataLoader worker (dataloader_num_workers=1): at module level it builds the
Trainer and calls train, two CPU processes under torchrun. The worker imports the script again
to find the data, reaches the same train(), and its own DataLoader tries to start a worker while
the worker is still bootstrapping: multiprocessing refuses, the worker exits, and the rank's
train() reports the worker's unexpected exit."""

import torch.multiprocessing as mp

from tools.repro.data_support import run_as_main
from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import script_arguments_for_the_snippet
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="multiprocessing-spawn-main-guard",
    variant="hf-trainer-train-at-module-level",
    description="transformers 5.24.0 Trainer: train() at module level, spawn worker, no guard",
    expect="fail",
    role=BROKEN,
    key_text=(
        "current process has finished its bootstrapping phase",
        "exited unexpectedly",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)

SCRIPT = """
import os

from transformers import Trainer, TrainingArguments

from tools.repro.framework_support import RegressionModel, regression_dataset

model = RegressionModel()
train_dataset = regression_dataset(int(os.environ["RANK"]))
args = TrainingArguments(output_dir="out", dataloader_num_workers=1)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
"""


def main(rank, world_size):
    work_in_temporary_directory()
    mp.set_start_method("spawn", force=True)
    with script_arguments_for_the_snippet():
        run_as_main(SCRIPT)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
