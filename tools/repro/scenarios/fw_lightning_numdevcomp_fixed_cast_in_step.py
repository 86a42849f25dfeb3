"""Fix, in Lightning: the entry's own Lightning snippet (a training_step that casts the batch
with .float()), rendered as the wizard renders it and taken into the user's LightningModule,
fits the same float64 NumPy batches on two CPU processes under torchrun, with gradients equal
across ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_numdevcomp_support import float64_pairs, regression_module_class
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import definitions, fix_snippet

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="lightning-fixed-cast-in-step",
    description="fix in Lightning 2.6.6: the entry's snippet, a training_step casting to float32",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("cast-data-to-float32", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    module = regression_module_class(definitions(code, "training_step")["training_step"])()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=module, dataloader=float64_pairs(rank))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
