"""A LightningModule that exports itself at the end of training from the strategy's model
(trainer.strategy.model, the DDP wrapper while training runs; Lightning unwraps it at
teardown), and a script that loads that file into a fresh LightningModule for inference:
every key has DDP's "module." in front, and load_state_dict refuses them, on two CPU processes
under torchrun.
"""

import lightning.pytorch as pl
import torch

from tools.repro.fw_dista_support import EncodedModule, work_in_own_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="lightning-saved-from-wrapper",
    description="Lightning 2.6.6: the DDP wrapper's state_dict, saved in on_train_end, loaded",
    expect="fail",
    role=BROKEN,
    key_text=('Unexpected key(s) in state_dict: "module.model.encoder.weight"',),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class LitModel(EncodedModule, pl.LightningModule):
    def on_train_end(self):
        if self.trainer.is_global_zero:
            torch.save(self.trainer.strategy.model.state_dict(), "model.pt")


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, module=LitModel())
    if trainer.is_global_zero:
        LitModel().load_state_dict(torch.load("model.pt"))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
