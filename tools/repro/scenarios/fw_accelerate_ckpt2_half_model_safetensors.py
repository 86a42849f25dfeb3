"""Resuming an Accelerate run from a state folder whose model.safetensors is the first half of
the file (a copy or a sync that broke off): accelerator.load_state reads it with safetensors,
"Error while deserializing header: incomplete metadata, file not fully covered" (Accelerate
1.15.0, safetensors 0.8.0, two CPU processes under torchrun).
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.fw_ckpt2_support import accelerate_saved_state, cut_in_half, shared_dir
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
    accelerate_saved_state(rank)
    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    if rank == 0:
        cut_in_half("checkpoints/step_500/model.safetensors")
    accelerator.wait_for_everyone()
    accelerator.prepare(script["model"], script["optimizer"])
    accelerator.load_state("checkpoints/step_500")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
