"""Resuming the Trainer from a checkpoint saved while the model's body was frozen (the
optimizer's groups held the classifier only), with every parameter trainable now:
trainer.train(resume_from_checkpoint=...) loads optimizer.pt into groups of other sizes,
"loaded state dict contains a parameter group that doesn't match the size of optimizer's
group" (transformers 5.24.0, two CPU processes under torchrun).
"""

from transformers import Trainer

from tools.repro.fw_ckpt2_support import (
    classification_dataset,
    resume_args,
    shared_dir,
    tiny_bert_classifier,
    trainer_checkpoint_with_frozen_body,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="optimizer-state-mismatch",
    variant="hf-trainer-body-frozen-when-saved",
    description="transformers 5.24.0: resume_from_checkpoint saved frozen, resumed all trainable",
    expect="fail",
    role=BROKEN,
    key_text=(
        "loaded state dict contains a parameter group that doesn't match the size of "
        "optimizer's group",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    checkpoint = trainer_checkpoint_with_frozen_body(rank)
    trainer = Trainer(
        model=tiny_bert_classifier(num_labels=2),
        args=resume_args(max_steps=4),
        train_dataset=classification_dataset(rank, 2),
    )
    trainer.train(resume_from_checkpoint=checkpoint)
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
