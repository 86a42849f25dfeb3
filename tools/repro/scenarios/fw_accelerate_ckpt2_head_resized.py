"""Resuming an Accelerate run with its last layer resized since save_state (1 output then, 3
now: num_classes changed): accelerator.load_state copies the saved weights into the prepared
model and safetensors' load_model fails, "size mismatch for net.2.weight: copying a param with
shape torch.Size([1, 8]) from checkpoint, the shape in current model is torch.Size([3, 8])"
(Accelerate 1.15.0, two CPU processes under torchrun).
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.fw_ckpt2_support import accelerate_saved_state, shared_dir, three_output_network
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="accelerate-head-resized-load-state",
    description="Accelerate 1.15.0: load_state into a model whose last layer was resized",
    expect="fail",
    role=BROKEN,
    key_text=(
        "size mismatch for net.2.weight: copying a param with shape torch.Size([1, 8])",
        "accelerate/checkpointing.py",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_saved_state(rank)
    script = accelerate_names(rank, net=three_output_network)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    accelerator.prepare(script["model"], script["optimizer"])
    accelerator.load_state("checkpoints/step_500")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
