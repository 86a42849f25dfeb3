"""A LightningModule that reads its hidden size from the node's own configuration (4 on rank
0's node, 5 on the other's): the ranks build Linear layers of different shapes, and DDP's
constructor, when the strategy wraps the module, refuses rank 1's, on two CPU processes under
torchrun. Rank 0 only sees its peer go.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_dista_support import sized_module_class
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="lightning-size-from-this-node",
    description="Lightning 2.6.6: the hidden size read per node, 4 on rank 0 and 5 on rank 1",
    expect="fail",
    role=BROKEN,
    key_text=(
        "params[0] in this process with sizes [5, 4] appears not to match sizes of the same "
        "param in process 0.",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=sized_module_class()())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
