"""Fix, in the Hugging Face Trainer: the entry's own snippet (from_pretrained of the checkpoint
folder for the weights, then a Trainer without resume_from_checkpoint, whose optimizer is
built afresh), rendered as the wizard renders it, starts from the checkpoint saved with the
body frozen (moved to out/checkpoint-1000, the folder the snippet names); every parameter
trains, on two CPU processes under torchrun, with gradients equal across ranks before every
optimizer step.
"""

import os

import torch
import torch.distributed as dist
from safetensors.torch import load_file

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    classification_dataset,
    resume_args,
    shared_dir,
    trainer_checkpoint_with_frozen_body,
    trainers_checked,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="optimizer-state-mismatch",
    variant="hf-trainer-fixed-weights-only-resume",
    description="fix in transformers 5.24.0: the snippet, from_pretrained, a fresh Trainer",
    expect="complete",
    role=FIXED,
    key_text=("weights of checkpoint-1000 loaded", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("rebuild-the-saved-param-groups", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    checkpoint = trainer_checkpoint_with_frozen_body(rank)
    if rank == 0:
        os.replace(checkpoint, "out/checkpoint-1000")
    dist.barrier()
    saved = load_file("out/checkpoint-1000/model.safetensors")
    steps = []
    with trainers_checked(steps):
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            args=resume_args(max_steps=4),
            train_dataset=classification_dataset(rank, 2),
        )
    assert not torch.equal(names["model"].classifier.weight, saved["classifier.weight"])  # trained
    if rank == 0:
        print("weights of checkpoint-1000 loaded, every parameter trained")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
