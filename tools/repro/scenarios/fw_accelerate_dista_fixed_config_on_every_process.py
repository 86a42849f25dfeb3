"""Fix, in Accelerate: the entry's own snippet (the same configuration file read on every
process, main process first, the model and its optimizer built from it, then prepare()),
rendered as the wizard renders it, then the user's loop: trains on two CPU processes under
torchrun, gradients equal across ranks at every optimizer step.
"""

import json
import os
from pathlib import Path

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_dista_support import MeanSquareOf, build_model, work_in_own_directory
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="accelerate-fixed-config-on-every-process",
    description="fix in Accelerate 1.15.0: the snippet, one config file read on every process",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-model-on-every-rank", "accelerate"),
    preload=("accelerate",),
)


def load_config():
    """The script's: the model's sizes from one file that every process reads, which the main
    process fetches first (as a download into a shared cache)."""
    if os.environ["RANK"] == "0":
        Path("config.json").write_text(json.dumps({"hidden_size": 8}))
    return json.loads(Path("config.json").read_text())


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    models = []

    def build_and_watch(**config):
        models.append(MeanSquareOf(build_model(**config)))
        return models[-1]

    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            load_config=load_config,
            build_model=build_and_watch,
        )
    steps = check_every_optimizer_step(models[0])
    accelerate_train(
        names["accelerator"],
        names["model"],
        names["optimizer"],
        accelerate_names(rank)["dataloader"],
    )
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
