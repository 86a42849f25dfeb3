"""Lightning's strategy="ddp_find_unused_parameters_true" on a LightningModule whose
parameters are all used, two CPU processes: training completes, and the reducer warns once per
process that the search for unused parameters found none and only cost time.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning

SCENARIO = Scenario(
    slug="ddp-find-unused-parameters-perf-warning",
    variant="lightning-find-unused-all-used",
    description='Lightning 2.6.6: strategy="ddp_find_unused_parameters_true", all used; warns',
    expect="complete",
    role=BROKEN,
    key_text=(
        "find_unused_parameters=True was specified in DDP constructor, "
        "but did not find any unused parameters",
        "Initializing distributed: GLOBAL_RANK",
    ),
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
    fit_lightning(trainer, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
