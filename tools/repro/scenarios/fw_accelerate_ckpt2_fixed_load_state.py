"""Fix, in Accelerate: the entry's own Accelerate snippet (prepare, then accelerator.load_state of
the folder save_state wrote), rendered as the wizard renders it, restores the saved weights into
a freshly built model, which trains on two CPU processes under torchrun with gradients equal
across ranks at every optimizer step.
"""

from tools.repro.fw_ckpt2_support import (
    accelerate_restore_and_train,
    accelerate_saved_state,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="state-dict-missing-unexpected-keys",
    variant="accelerate-fixed-load-state",
    description="fix in Accelerate 1.15.0: the snippet, prepare then load_state",
    expect="complete",
    role=FIXED,
    key_text=(
        "load_state restored the saved weights",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("load-the-model-entry-with-matching-keys", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    saved = accelerate_saved_state(rank)
    accelerate_restore_and_train(SCENARIO, rank, saved, "load_state restored the saved weights")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
