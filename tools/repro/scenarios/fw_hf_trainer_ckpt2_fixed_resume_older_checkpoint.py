"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments with
save_total_limit=2, then trainer.train(resume_from_checkpoint="out/checkpoint-1000"), the older
of the two checkpoints kept), rendered as the wizard renders it: the newest checkpoint's
optimizer.pt is half there, the older one (moved to out/checkpoint-1000, the folder the snippet
names) is complete, and the Trainer resumes from it and trains the remaining steps on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step.
"""

import os

import torch.distributed as dist

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    WIDE,
    LateTrainer,
    classification_dataset,
    gradient_callback,
    recording_arguments,
    shared_dir,
    tiny_bert_classifier,
    trainer_checkpoints_newest_cut,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="hf-trainer-fixed-resume-older-checkpoint",
    description="fix in transformers 5.24.0: the snippet, resume from the older kept checkpoint",
    expect="complete",
    role=FIXED,
    key_text=(
        "resumed from checkpoint-1000 at step 2",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("complete-copy-and-atomic-save", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    trainer_checkpoints_newest_cut(rank)
    if rank == 0:
        os.replace("out/checkpoint-2", "out/checkpoint-1000")
    dist.barrier()
    built, steps = [], []
    trainer = LateTrainer(
        built,
        model=tiny_bert_classifier(num_labels=2, hidden_size=WIDE),
        train_dataset=classification_dataset(rank, 2),
        callbacks=[gradient_callback(steps)],
    )
    with recording_arguments(built, ddp_backend="gloo", max_steps=4, save_strategy="no"):
        run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), trainer=trainer)
    assert built[-1].save_total_limit == 2
    assert steps == [2, 3], steps  # the steps after the older checkpoint's step 2
    if rank == 0:
        print("resumed from checkpoint-1000 at step 2")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
