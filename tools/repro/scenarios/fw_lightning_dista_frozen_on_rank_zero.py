"""A Lightning callback that freezes the encoder in its setup hook, decorated @rank_zero_only:
rank 0 has two trainable parameters fewer than rank 1 when the strategy wraps the module, and
DDP's constructor refuses the ranks' different counts, on two CPU processes under torchrun.
"""

import lightning.pytorch as pl
from lightning.pytorch.utilities import rank_zero_only

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_dista_support import EncodedModule
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="lightning-frozen-on-rank-zero",
    description="Lightning 2.6.6: a @rank_zero_only callback freezes the encoder in setup",
    expect="fail",
    role=BROKEN,
    key_text=("DDP expects same model across all ranks, but Rank", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class FreezeEncoder(pl.Callback):
    @rank_zero_only
    def setup(self, trainer, pl_module, stage):
        pl_module.model.encoder.requires_grad_(False)


class LitModel(EncodedModule, pl.LightningModule):
    pass


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp", callbacks=[FreezeEncoder()])
    fit_lightning(trainer, rank, check=False, module=LitModel())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
