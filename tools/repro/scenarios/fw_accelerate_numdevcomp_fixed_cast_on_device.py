"""Fix, in Accelerate: the entry's own Accelerate snippet (each batch moved to the device as
float32), rendered as the wizard renders it and run on every batch of the same float64 rows, on
two CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

import torch
from accelerate import Accelerator

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_numdevcomp_support import accelerate_float64_script, accelerate_float64_train
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="accelerate-fixed-cast-on-device",
    description="fix in Accelerate 1.15.0: the entry's snippet, inputs.to(device, dtype=float32)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("cast-data-to-float32", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    accelerator = Accelerator(cpu=True)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    module, optimizer, dataloader = accelerate_float64_script(rank)
    steps = check_every_optimizer_step(module)

    def convert(inputs):
        # The script around the snippet has imported torch and holds the batch as `inputs`.
        return run_snippet(code, torch=torch, accelerator=accelerator, inputs=inputs)["inputs"]

    accelerate_float64_train(accelerator, module, optimizer, dataloader, convert)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
