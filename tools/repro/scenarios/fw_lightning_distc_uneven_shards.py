"""Lightning's DDP strategy with use_distributed_sampler=False and shards cut by hand, 2
batches on rank 0 and 4 on rank 1, two CPU processes under torchrun: rank 0 leaves the epoch
for the script's barrier after fit (before it saves the model) while rank 1's third backward
waits in an all-reduce nobody joins, until the process group's timeout (4 s here, through
DDPStrategy(timeout=...)). Without that barrier rank 0 exits and rank 1 fails at once with
"Connection closed by peer" instead.
"""

from datetime import timedelta

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distc_support import SHORT_TIMEOUT_S, uneven_shard
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    shows="gloo-collective-timeout",
    variant="lightning-uneven-shards",
    description="Lightning 2.6.6: hand-cut shards of 2 and 4 batches, no distributed sampler",
    expect="fail",
    role=BROKEN,
    # The waiting rank's backward reports the timeout as "Application timeout caused pair
    # closure" or as "Timed out waiting 4000ms for recv operation to complete", whichever of
    # gloo's threads notices first: the capture holds one, the run may print the other.
    key_text=("RuntimeError", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    strategy = DDPStrategy(process_group_backend="gloo", timeout=timedelta(seconds=SHORT_TIMEOUT_S))
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=strategy, use_distributed_sampler=False)
    fit_lightning(trainer, rank, check=False, dataloader=uneven_shard(rank))
    trainer.strategy.barrier("before saving the model")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
