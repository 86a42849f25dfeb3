"""Lightning's DDP strategy with accumulate_grad_batches chosen per process (4 on rank 0, 3 on
rank 1, as a script that derives it from its own device's free memory does), two CPU processes
under torchrun: Lightning leaves no_sync() at different micro-batches on each rank, so their
all-reduces no longer pair up and one rank waits until the process group's timeout (8 s here,
through DDPStrategy(timeout=...)).
"""

from datetime import timedelta

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    shows="gloo-collective-timeout",
    variant="lightning-accumulation-differs-per-rank",
    description="Lightning 2.6.6: accumulate_grad_batches 4 on rank 0, 3 on rank 1; hangs",
    expect="fail",
    role=BROKEN,
    # The waiting rank's backward reports the timeout as "Application timeout caused pair
    # closure" or as "Timed out waiting ... for recv operation to complete", whichever of
    # gloo's threads notices first: the capture holds one, the run may print the other.
    key_text=("RuntimeError", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    strategy = DDPStrategy(process_group_backend="gloo", timeout=timedelta(seconds=8))
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=strategy, accumulate_grad_batches=4 if rank == 0 else 3)
    fit_lightning(trainer, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
