"""Lightning's strategy="ddp_find_unused_parameters_true" and a LightningModule that checkpoints
a layer with reentrant checkpointing, two CPU processes: the forward's graph leaves the layer
out, so DDP marks its parameters ready as unused, and the inner backward marks them again.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import ReentrantCheckpointed, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="lightning-reentrant-checkpoint-find-unused",
    description="Lightning 2.6.6: ddp_find_unused_parameters_true, reentrant checkpoint",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to mark a variable ready only once", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=world_size,
        strategy="ddp_find_unused_parameters_true",
        max_epochs=1,
        enable_checkpointing=False,
        logger=False,
        use_distributed_sampler=False,
    )
    fit_lightning(trainer, rank, net=ReentrantCheckpointed, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
