"""A Lightning checkpoint (last.ckpt, saved by trainer.save_checkpoint) passed whole to the
LightningModule's load_state_dict: the weights are one entry of it ("state_dict"), so torch
finds none of the module's keys and the checkpoint's own ("epoch", "global_step", ...) instead,
on two CPU processes under torchrun (Lightning 2.6.6).
"""

import torch

from tools.repro.fw_ckpt2_support import lit_module_class, save_lightning_checkpoint, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="state-dict-missing-unexpected-keys",
    variant="lightning-whole-checkpoint-dict",
    description="Lightning 2.6.6: model.load_state_dict(torch.load('last.ckpt')), the whole dict",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Error(s) in loading state_dict for LitModel:",
        'Unexpected key(s) in state_dict: "epoch", "global_step", "pytorch-lightning_version"',
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank)
    save_lightning_checkpoint(LitModel(), world_size)
    model = LitModel()
    model.load_state_dict(torch.load("last.ckpt"))
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
