"""Resuming an Accelerate run from a state folder cloned without Git LFS, its weights saved with
save_state(safe_serialization=False): pytorch_model.bin is the text pointer LFS leaves
(tools.repro.ckpt_support.lfs_pointer), and accelerator.load_state reads it with torch.load,
whose weights-only unpickler fails on its first byte, "Unsupported operand 118" (Accelerate
1.15.0, two CPU processes under torchrun).
"""

from tools.repro.ckpt_support import lfs_pointer
from tools.repro.fw_ckpt2_support import accelerate_load_damaged_state, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="accelerate-lfs-pointer-state",
    description="Accelerate 1.15.0: load_state, pytorch_model.bin a Git LFS pointer",
    expect="fail",
    role=BROKEN,
    key_text=("Unsupported operand 118", "accelerate/checkpointing.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_load_damaged_state(
        rank, "checkpoints/step_500/pytorch_model.bin", lfs_pointer, safe_serialization=False
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
