"""Resuming an Accelerate run from the folder its save_state("checkpoints/step_500") rewrites
each time, after a save was interrupted while writing optimizer.bin (the file cut to half its
size): accelerator.load_state loads the weights, then torch.load of optimizer.bin fails,
"PytorchStreamReader failed reading zip archive: failed finding central directory" (Accelerate
1.15.0, two CPU processes under torchrun).
"""

from tools.repro.fw_ckpt2_support import accelerate_load_damaged_state, cut_in_half, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="accelerate-half-optimizer-bin",
    description="Accelerate 1.15.0: load_state of a folder with half of optimizer.bin",
    expect="fail",
    role=BROKEN,
    key_text=(
        "PytorchStreamReader failed reading zip archive: failed finding central directory",
        "accelerate/checkpointing.py",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_load_damaged_state(rank, "checkpoints/step_500/optimizer.bin", cut_in_half)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
