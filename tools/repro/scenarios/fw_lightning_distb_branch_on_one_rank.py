"""Lightning's DDP strategy without find_unused_parameters and a LightningModule whose network
runs a layer on rank 0 only (a data-dependent branch), two CPU processes under torchrun: rank 1
never reports that layer's gradient, so its bucket is all-reduced on rank 0 alone; rank 1 runs
its next forward and Lightning 2.6.6 raises its own unused-parameters message there (PyTorch's
"Expected to have finished reduction in the prior iteration"), while rank 0, still waiting in
the all-reduce, reaches the process group's timeout (8 s here, DDPStrategy(timeout=...)): the
output ends in the timeout of gloo-collective-timeout, whose folder the capture goes to (the
Accelerate and Trainer runs lose the peer at once instead and show the unused-parameters error).
"""

from datetime import timedelta

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    shows="gloo-collective-timeout",
    variant="lightning-branch-used-on-one-rank",
    description="Lightning 2.6.6: DDPStrategy() and a layer used on rank 0 only",
    expect="fail",
    role=BROKEN,
    # The waiting rank's backward (rank 0) reports the timeout as "Application timeout caused pair
    # closure" or as "Timed out waiting ... for recv operation to complete", whichever of
    # gloo's threads notices first: the capture holds one, the run may print the other.
    key_text=(
        "It looks like your LightningModule has parameters that were not used",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    strategy = DDPStrategy(process_group_backend="gloo", timeout=timedelta(seconds=8))
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=strategy)
    fit_lightning(trainer, rank, net=BranchOnRankZero, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
