"""Resuming the Trainer from its newest checkpoint whose optimizer.pt is only half there (a save
interrupted while writing it): trainer.train(resume_from_checkpoint="out/checkpoint-4") loads
the weights, then torch.load of optimizer.pt fails, "PytorchStreamReader failed reading zip
archive: failed finding central directory" (transformers 5.24.0, two CPU processes under
torchrun).
"""

from transformers import Trainer

from tools.repro.fw_ckpt2_support import (
    WIDE,
    classification_dataset,
    resume_args,
    shared_dir,
    tiny_bert_classifier,
    trainer_checkpoints_newest_cut,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="hf-trainer-half-optimizer-pt",
    description="transformers 5.24.0: resume_from_checkpoint with half of optimizer.pt",
    expect="fail",
    role=BROKEN,
    key_text=(
        "PytorchStreamReader failed reading zip archive: failed finding central directory",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    trainer_checkpoints_newest_cut(rank)
    trainer = Trainer(
        model=tiny_bert_classifier(num_labels=2, hidden_size=WIDE),
        args=resume_args(max_steps=6),
        train_dataset=classification_dataset(rank, 2),
    )
    trainer.train(resume_from_checkpoint="out/checkpoint-4")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
