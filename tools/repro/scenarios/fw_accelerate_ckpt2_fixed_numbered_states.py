"""Fix, in Accelerate: the entry's own snippet (an Accelerator whose ProjectConfiguration numbers
each save_state folder and keeps the last two, then load_state of the one before the newest),
rendered as the wizard renders it, after an earlier run saved with that configuration three
times (checkpoint_0 deleted by Accelerate, checkpoint_1 and checkpoint_2 kept) and its newest
save was interrupted (checkpoint_2's optimizer.bin cut to half its size): load_state restores
checkpoint_1's weights into a freshly built model, which trains on two CPU processes under
torchrun with gradients equal across ranks at every optimizer step.
"""

from tools.repro.fw_ckpt2_support import (
    accelerate_numbered_states,
    accelerate_restore_and_train,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="accelerate-fixed-numbered-states",
    description="fix in Accelerate 1.15.0: the snippet, numbered states, load the older one",
    expect="complete",
    role=FIXED,
    key_text=(
        "load_state restored checkpoint_1 with checkpoint_2 cut short",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("complete-copy-and-atomic-save", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    saved = accelerate_numbered_states(rank)["checkpoint_1"]
    done = "load_state restored checkpoint_1 with checkpoint_2 cut short"
    accelerate_restore_and_train(SCENARIO, rank, saved, done)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
