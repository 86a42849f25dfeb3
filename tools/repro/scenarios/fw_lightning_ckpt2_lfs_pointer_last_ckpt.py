"""Resuming Lightning's fit from a last.ckpt that is the text pointer Git LFS leaves in a clone
whose files were never pulled (tools.repro.ckpt_support.lfs_pointer): Trainer.fit(ckpt_path=...)
reads it with torch.load, whose weights-only unpickler fails on the pointer's first byte,
"Unsupported operand 118", on two CPU processes under torchrun (Lightning 2.6.6).
"""

import os

from tools.repro.ckpt_support import lfs_pointer
from tools.repro.fw_ckpt2_support import fit_checked, lit_module_class, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="lightning-lfs-pointer-last-ckpt",
    description="Lightning 2.6.6: fit(ckpt_path='last.ckpt') of a Git LFS pointer",
    expect="fail",
    role=BROKEN,
    key_text=("Unsupported operand 118", "lightning/fabric/utilities/cloud_io.py"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    # No process group before fit: each rank puts the same pointer in place atomically.
    os.replace(lfs_pointer(f"last.ckpt.{rank}"), "last.ckpt")
    fit_checked(lit_module_class(rank)(), world_size, max_epochs=1, ckpt_path="last.ckpt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
