"""Lightning's DDPStrategy(static_graph=True) and a LightningModule under manual optimization
that backwards the losses of its two heads separately, two CPU processes under torchrun: the
second backward fires hooks the first iteration's graph did not hold, and static_graph refuses
the changed graph.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_on_this_machine,
    two_backwards_module,
)

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="lightning-static-graph-two-backwards",
    description="Lightning 2.6.6: DDPStrategy(static_graph=True), two manual_backward calls",
    expect="fail",
    role=BROKEN,
    key_text=("Your training graph has changed in this iteration", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    strategy = DDPStrategy(static_graph=True, process_group_backend="gloo")
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=strategy)
    fit_lightning(trainer, rank, check=False, module=two_backwards_module())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
