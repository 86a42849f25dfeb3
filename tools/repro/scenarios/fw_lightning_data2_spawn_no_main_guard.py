"""A Lightning training script without ``if __name__ == "__main__":`` (run as ``__main__`` with
runpy, as ``python train.py`` does) whose LightningDataModule starts its worker with spawn: at
module level it builds the Trainer and calls fit, two CPU processes under torchrun. The worker
imports the script again to find the module and the data, reaches the same fit, and its own
DataLoader tries to start a worker while the worker is still bootstrapping: multiprocessing
refuses, the worker exits, and the rank's fit reports the worker's unexpected exit."""

from tools.repro.data_support import run_as_main
from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_on_this_machine

SCENARIO = Scenario(
    slug="multiprocessing-spawn-main-guard",
    variant="lightning-fit-at-module-level",
    description="Lightning 2.6.6: a script fits at module level, spawn worker, no main guard",
    expect="fail",
    role=BROKEN,
    key_text=(
        "current process has finished its bootstrapping phase",
        "exited unexpectedly",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)

SCRIPT = """
import lightning as L

from tools.repro.fw_data2_support import batch_module, spawn_squares_datamodule

model = batch_module()
datamodule = spawn_squares_datamodule()
trainer = L.Trainer(max_epochs=1)
trainer.fit(model, datamodule=datamodule)
"""


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        run_as_main(SCRIPT)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
