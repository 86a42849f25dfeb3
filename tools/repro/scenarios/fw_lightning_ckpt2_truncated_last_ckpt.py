"""Resuming Lightning's fit from a last.ckpt cut to half its size (a save or a copy that was
interrupted, tools.repro.ckpt_support.truncate): Trainer.fit(ckpt_path=...) reads it with
torch.load, "PytorchStreamReader failed reading zip archive: failed finding central directory",
on two CPU processes under torchrun (Lightning 2.6.6).
"""

import torch.distributed as dist

from tools.repro.ckpt_support import truncate
from tools.repro.fw_ckpt2_support import (
    fit_checked,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="lightning-half-last-ckpt",
    description="Lightning 2.6.6: fit(ckpt_path='last.ckpt') of the first half of the checkpoint",
    expect="fail",
    role=BROKEN,
    key_text=(
        "PytorchStreamReader failed reading zip archive: failed finding central directory",
        "lightning/fabric/utilities/cloud_io.py",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank)
    save_lightning_checkpoint(LitModel(), world_size, "complete.ckpt")
    if rank == 0:
        truncate("complete.ckpt", "last.ckpt")
    dist.barrier()
    fit_checked(LitModel(), world_size, max_epochs=2, ckpt_path="last.ckpt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
