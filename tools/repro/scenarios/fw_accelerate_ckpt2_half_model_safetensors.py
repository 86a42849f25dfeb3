"""Resuming an Accelerate run from a state folder whose model.safetensors is the first half of
the file (a copy or a sync that broke off): accelerator.load_state reads it with safetensors,
"Error while deserializing header: incomplete metadata, file not fully covered" (Accelerate
1.15.0, safetensors 0.8.0, two CPU processes under torchrun).
"""

from tools.repro.fw_ckpt2_support import accelerate_load_damaged_state, cut_in_half, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="safetensors-header-invalid",
    variant="accelerate-half-model-safetensors",
    description="Accelerate 1.15.0: load_state of a folder with half of model.safetensors",
    expect="fail",
    role=BROKEN,
    key_text=("Error while deserializing header", "accelerate/checkpointing.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_load_damaged_state(rank, "checkpoints/step_500/model.safetensors", cut_in_half)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
