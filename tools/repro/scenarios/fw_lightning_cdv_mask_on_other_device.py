"""Lightning's DDP strategy fitting a LightningModule whose training_step makes a mask on
another device than the module's ("meta" standing in for the second device a CPU-only machine
lacks, as in dev_input_on_other_device): multiplying the output by it fails in the first
training_step on every rank with "Tensor on device meta is not on the expected device cpu!",
on two CPU processes under torchrun. On a GPU the same code says "Expected all tensors to be on
the same device".
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_cdv_support import float32_pairs, mask_on_other_device
from tools.repro.fw_numdevcomp_support import regression_module_class
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="tensors-on-different-devices",
    variant="lightning-mask-on-other-device",
    description="Lightning 2.6.6: a mask made on 'meta' in training_step (meta for a GPU)",
    expect="fail",
    role=BROKEN,
    key_text=(
        "RuntimeError: Tensor on device meta is not on the expected device cpu!",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    module = regression_module_class(mask_on_other_device)()
    fit_lightning(trainer, rank, check=False, module=module, dataloader=float32_pairs(rank))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
