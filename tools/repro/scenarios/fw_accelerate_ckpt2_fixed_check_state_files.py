"""Fix, in Accelerate: the entry's own Accelerate snippet (every file of the state folder
checked, then accelerator.load_state), rendered as the wizard renders it for a file from a git
clone: run on the folder of fw_accelerate_ckpt2_lfs_pointer_state it names the Git LFS pointer
before load_state reads it; with the real pytorch_model.bin back (what `git lfs pull` does), the
state loads into an untrained model, whose weights are then the saved ones, and it trains on two
CPU processes under torchrun with gradients equal across ranks at every optimizer step.
"""

from tools.repro.ckpt_support import lfs_pointer
from tools.repro.fw_ckpt2_support import accelerate_refused_then_restored, shared_dir
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="accelerate-fixed-check-state-files",
    description="fix in Accelerate 1.15.0: the snippet's check of each file, then load_state",
    expect="complete",
    role=FIXED,
    key_text=(
        "pytorch_model.bin is a Git LFS pointer: run `git lfs pull`",
        "load_state restored the saved weights",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("fetch-the-real-file", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    accelerate_refused_then_restored(
        SCENARIO,
        rank,
        "checkpoints/step_500/pytorch_model.bin",
        lfs_pointer,  # `git lfs pull` then puts the real file back
        values={"ckpt_file_origin": "git_lfs"},
        safe_serialization=False,
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
