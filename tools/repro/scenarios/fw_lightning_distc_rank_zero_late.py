"""Lightning's DDPStrategy(process_group_backend="gloo", timeout=4 s) and a callback that does
5 s of work on rank 0 only after the first batch (a checkpoint written), two CPU processes
under torchrun: rank 1 goes on to the next step's all-reduce and gives up waiting for rank 0
after the timeout.
"""

from datetime import timedelta

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distc_support import SHORT_TIMEOUT_S, late_rank_callback
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="lightning-rank-0-late-for-all-reduce",
    description="Lightning 2.6.6: timeout 4 s, rank 0 busy 5 s after its first batch",
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
        trainer = pl.Trainer(strategy=strategy, callbacks=[late_rank_callback(rank)])
    fit_lightning(trainer, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
