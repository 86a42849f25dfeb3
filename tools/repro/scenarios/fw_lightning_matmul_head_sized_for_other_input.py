"""Lightning's DDP strategy fitting the user's LightningModule whose head was sized for 8x8
images, on 12x12 ones (as dev_classifier_sized_for_other_input): the first training_step fails
in Lightning's frames with "mat1 and mat2 shapes cannot be multiplied (2x144 and 64x3)", on
both CPU processes under torchrun.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_matmul_support import image_batches, lightning_classifier_sized_for_8x8
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="lightning-head-sized-for-other-input",
    description="Lightning 2.6.6: head sized for 8x8 images, fitted on 12x12 ones under ddp",
    expect="fail",
    role=BROKEN,
    key_text=(
        "strategies/ddp.py",
        "in training_step",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x144 and 64x3)",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    module = lightning_classifier_sized_for_8x8()
    fit_lightning(trainer, rank, check=False, module=module, dataloader=image_batches(rank))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
