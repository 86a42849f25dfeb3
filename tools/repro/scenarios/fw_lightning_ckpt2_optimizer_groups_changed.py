"""Resuming Lightning's fit from a checkpoint saved while configure_optimizers optimized the
head only (the body frozen), with a LightningModule that now optimizes every parameter:
Trainer.fit(ckpt_path=...) restores the optimizer's state into groups of other sizes, "loaded
state dict contains a parameter group that doesn't match the size of optimizer's group", on two
CPU processes under torchrun (Lightning 2.6.6).
"""

from tools.repro.fw_ckpt2_support import (
    fit_checked,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="optimizer-state-mismatch",
    variant="lightning-head-only-when-saved",
    description="Lightning 2.6.6: fit(ckpt_path=...) saved optimizing the head, resumed with all",
    expect="fail",
    role=BROKEN,
    key_text=(
        "loaded state dict contains a parameter group that doesn't match the size of "
        "optimizer's group",
        "lightning/pytorch/trainer/connectors/checkpoint_connector.py",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    head_only = lit_module_class(rank, optimized=lambda module: module.net[2].parameters())
    save_lightning_checkpoint(head_only(), world_size)
    fit_checked(lit_module_class(rank)(), world_size, max_epochs=2, ckpt_path="last.ckpt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
