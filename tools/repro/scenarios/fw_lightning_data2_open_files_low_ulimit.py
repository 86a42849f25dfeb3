"""Lightning's DDP strategy fitting on batches of 32 shared tensors with the default
file_descriptor sharing strategy, a training_step that keeps every batch, and an open-file limit
64 above what the rank had open once training starts (a low ``ulimit -n``), two CPU processes
under torchrun: within a few batches the rank cannot receive the file descriptor the worker
sends."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import batch_module, limit_files_at_the_first_step_lightning
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.scenarios.data_too_many_open_files import HEADROOM, ManyTensors

SCENARIO = Scenario(
    slug="dataloader-too-many-open-files",
    variant="lightning-file-descriptor-strategy-low-ulimit",
    description="Lightning 2.6.6: batches of 32 tensors kept, open-file limit 64 above",
    expect="fail",
    role=BROKEN,
    key_text=("received 0 items of ancdata", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(
        accelerator="cpu",
        devices=world_size,
        callbacks=[limit_files_at_the_first_step_lightning(HEADROOM)],
    ):
        trainer = pl.Trainer(strategy="ddp")
    loader = DataLoader(ManyTensors(), batch_size=2, num_workers=1, timeout=30)
    fit_lightning(trainer, rank, check=False, module=batch_module(keep=True), dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
