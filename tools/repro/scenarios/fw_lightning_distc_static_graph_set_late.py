"""Lightning's DDP strategy and a callback that switches static_graph on once training is under
way (`trainer.strategy.model._set_static_graph()` after the first batch), two CPU processes
under torchrun: the reducer has recorded the first iteration and refuses the switch.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="lightning-static-graph-set-late",
    description="Lightning 2.6.6: a callback calls _set_static_graph() after the first batch",
    expect="fail",
    role=BROKEN,
    key_text=(
        "set_static_graph() should be called before training loop starts and after "
        "DistributedDataParallel is constructed.",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class StaticGraphAfterWarmUp(pl.Callback):
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        if batch_idx == 0:
            trainer.strategy.model._set_static_graph()


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp", callbacks=[StaticGraphAfterWarmUp()])
    fit_lightning(trainer, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
