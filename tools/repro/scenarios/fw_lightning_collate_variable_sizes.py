"""Lightning's DDP strategy fitting on a DataLoader of token sequences of two lengths, read by
one worker with the default collate function, two CPU processes under torchrun: the worker's
torch.stack refuses the unequal shapes, re-raised in Lightning's fit loop."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine, sequence_module
from tools.repro.scenarios.data_collate_variable_sizes import Sequences

SCENARIO = Scenario(
    slug="collate-tensor-size-mismatch",
    variant="lightning-sequences-of-two-lengths",
    description="Lightning 2.6.6: default_collate over sequences of lengths 9 and 12",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Caught RuntimeError in DataLoader worker process 0",
        "stack expects each tensor to be equal size",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    loader = DataLoader(Sequences(), batch_size=4, num_workers=1)
    fit_lightning(trainer, rank, check=False, module=sequence_module(), dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
