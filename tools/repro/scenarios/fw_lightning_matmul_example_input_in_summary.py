"""What the entry's Lightning snippet used to advise, for the module of
fw_lightning_matmul_head_sized_for_other_input: example_input_array set to one real image, the
model summary on (Lightning's default). It sizes nothing: the summary runs that input through
the module at fit start, on every rank (callbacks/model_summary.py, on_fit_start), and the same
"mat1 and mat2 shapes cannot be multiplied" stops the fit there, before the first step, on two
CPU processes under torchrun.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_matmul_support import image_batches, lightning_classifier_sized_for_8x8
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="lightning-example-input-in-summary",
    description="Lightning 2.6.6: example_input_array of the real size fails in the summary",
    expect="fail",
    role=BROKEN,
    key_text=(
        "in _forward_example_input",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x144 and 64x3)",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    loader = image_batches(rank)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp", enable_model_summary=True)
    module = lightning_classifier_sized_for_8x8(example_input_array=next(iter(loader))[0][:1])
    fit_lightning(trainer, rank, check=False, module=module, dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
