"""Lightning's DDPStrategy without find_unused_parameters, and a LightningModule with a layer
its training_step never uses: the second step finds the first one's reduction unfinished, and
Lightning 2.6.6 replaces PyTorch's message with its own, on two CPU processes.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import Unused, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="lightning-unused-parameter",
    description="Lightning 2.6.6: DDPStrategy() and a layer training_step never uses",
    expect="fail",
    role=BROKEN,
    key_text=(
        "It looks like your LightningModule has parameters that were not used",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=world_size,
        strategy=DDPStrategy(process_group_backend="gloo"),
        max_epochs=1,
        enable_checkpointing=False,
        logger=False,
        use_distributed_sampler=False,
    )
    fit_lightning(trainer, rank, net=Unused, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
