"""Fix, in Accelerate: the entry's own Accelerate snippet (every .safetensors file of the state
folder checked, then accelerator.load_state), rendered as the wizard renders it: run on the
folder of fw_accelerate_ckpt2_half_model_safetensors it refuses the half file before load_state
reads it; with the complete file back, the state loads into a freshly built model, whose weights
are the saved ones, and it trains on two CPU processes under torchrun with gradients equal
across ranks at every optimizer step.
"""

from tools.repro.fw_ckpt2_support import (
    accelerate_refused_then_restored,
    cut_in_half,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="safetensors-header-invalid",
    variant="accelerate-fixed-check-then-load-state",
    description="fix in Accelerate 1.15.0: the snippet's header check, then load_state",
    expect="complete",
    role=FIXED,
    key_text=(
        "is not a complete safetensors file: fetch it again",
        "load_state restored the saved weights",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("fetch-the-complete-safetensors-file", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_refused_then_restored(
        SCENARIO, rank, "checkpoints/step_500/model.safetensors", cut_in_half
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
