"""Fix, in Lightning: the entry's own snippet (a training_step that makes its mask with
device=self.device), rendered as the wizard renders it and taken into the user's module, for
the script of fw_lightning_cdv_mask_on_other_device: Lightning's DDP strategy fits it on two
CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_cdv_support import float32_pairs
from tools.repro.fw_numdevcomp_support import regression_module_class
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="tensors-on-different-devices",
    variant="lightning-fixed-mask-on-self-device",
    description="fix in Lightning 2.6.6: the snippet's training_step, device=self.device",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("one-device-for-model-and-data", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    # The snippet names torch without importing it: the user's module file has.
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), torch=torch)
    module = regression_module_class(snippet["Model"].training_step)()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=module, dataloader=float32_pairs(rank))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
