"""Lightning's DDPStrategy told to register an fp16 compression hook (ddp_comm_hook=...) and a
LightningModule that registers its own hook on the wrapped model as well, on two CPU processes
under torchrun: this does not reproduce. Lightning 2.6.6 registers the strategy's hook only on
CUDA (DDPStrategy._register_ddp_hooks, `if self.root_device.type == "cuda"`), so on a CPU the
script's is the only one, and the model trains.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import NO_REPRO, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="ddp-comm-hook-twice",
    variant="lightning-comm-hook-on-cpu",
    description="Lightning 2.6.6 on CPU: ddp_comm_hook and the module's own hook; one registered",
    expect="complete",
    role=NO_REPRO,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class RegistersItsOwnHook(lightning_module_class()):
    def on_fit_start(self):
        self.trainer.strategy.model.register_comm_hook(None, default_hooks.fp16_compress_hook)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=DDPStrategy(ddp_comm_hook=default_hooks.fp16_compress_hook))
    report_equal_gradients(fit_lightning(trainer, rank, module=RegistersItsOwnHook()), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
