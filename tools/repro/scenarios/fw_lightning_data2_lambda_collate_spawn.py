"""Lightning's DDP strategy fitting on a DataLoader whose collate_fn is a lambda, with the start
method set to spawn (the default on macOS and Windows), two CPU processes under torchrun: the
fit loop's first iteration of the loader pickles the lambda for the worker, and pickle refuses."""

import lightning.pytorch as pl
import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import RankSquares, batch_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="multiprocessing-spawn-pickle",
    variant="lightning-lambda-collate-fn-spawn",
    description="Lightning 2.6.6: collate_fn=lambda in a DataLoader whose worker is spawned",
    expect="fail",
    role=BROKEN,
    key_text=("Can't pickle local object 'main.<locals>.<lambda>'", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    mp.set_start_method("spawn", force=True)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    loader = DataLoader(
        RankSquares(rank),
        batch_size=4,
        num_workers=1,
        collate_fn=lambda batch: torch.stack(batch) * 0.5,
    )
    fit_lightning(trainer, rank, check=False, module=batch_module(), dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
