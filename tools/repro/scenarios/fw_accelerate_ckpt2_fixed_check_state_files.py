"""Fix, in Accelerate: the entry's own Accelerate snippet (every file of the state folder
checked, then accelerator.load_state), rendered as the wizard renders it for a file from a git
clone: run on the folder of fw_accelerate_ckpt2_lfs_pointer_state it names the Git LFS pointer
before load_state reads it; with the real pytorch_model.bin back (what `git lfs pull` does), the
state loads into an untrained model, whose weights are then the saved ones, and it trains on two
CPU processes under torchrun with gradients equal across ranks at every optimizer step.
"""

import shutil

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.ckpt_support import lfs_pointer
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import accelerate_saved_state, shared_dir
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

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

MODEL_FILE = "checkpoints/step_500/pytorch_model.bin"


def main(rank, world_size):
    shared_dir()
    saved = accelerate_saved_state(rank, safe_serialization=False)
    script = accelerate_names(rank)  # untrained: other weights than the saved ones
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    if rank == 0:
        shutil.copy(MODEL_FILE, "pulled.bin")
        lfs_pointer(MODEL_FILE)
    accelerator.wait_for_everyone()
    model, optimizer, dataloader = accelerator.prepare(
        script["model"], script["optimizer"], script["dataloader"]
    )
    unwrapped = accelerator.unwrap_model(model)
    assert not all(torch.equal(unwrapped.state_dict()[k], v) for k, v in saved.items())
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, ckpt_file_origin="git_lfs")
    try:
        run_snippet(code, accelerator=accelerator)
        raise AssertionError("the snippet loaded a Git LFS pointer")
    except ValueError as refused:
        if rank == 0:
            print(refused)
    accelerator.wait_for_everyone()
    if rank == 0:
        shutil.move("pulled.bin", MODEL_FILE)  # what `git lfs pull` does
    accelerator.wait_for_everyone()
    run_snippet(code, accelerator=accelerator)
    loaded = unwrapped.state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in saved.items()), "weights not restored"
    if rank == 0:
        print("load_state restored the saved weights")
    steps = check_every_optimizer_step(unwrapped)
    accelerate_train(accelerator, model, optimizer, dataloader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
