"""Lightning's DDPStrategy(gradient_as_bucket_view=True) and a LightningModule whose own
optimizer_zero_grad detaches each gradient in place (an old-style zero_grad): at the second
step the gradients are views of DDP's buckets, and autograd refuses to detach them, on two CPU
processes under torchrun.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_dista_support import old_style_zero_grad
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="lightning-detach-bucket-view",
    description="Lightning 2.6.6: gradient_as_bucket_view=True, grad.detach_() in zero_grad",
    expect="fail",
    role=BROKEN,
    key_text=("Can't detach views in-place. Use detach() instead.", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class DetachesInPlace(lightning_module_class()):
    def optimizer_zero_grad(self, epoch, batch_idx, optimizer):
        old_style_zero_grad(self.parameters())


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=DDPStrategy(gradient_as_bucket_view=True))
    fit_lightning(trainer, rank, check=False, module=DetachesInPlace())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
