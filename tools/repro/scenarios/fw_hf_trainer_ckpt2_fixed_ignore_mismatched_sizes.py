"""Fix, in the Hugging Face Trainer: the entry's own snippet (from_pretrained with
ignore_mismatched_sizes=True), rendered as the wizard renders it with num_labels = 3, loads the
10-label tiny BERT saved under the folder name bert-base-uncased (nothing downloaded) with a new
3-label head, which the Trainer trains on two CPU processes under torchrun, with gradients equal
across ranks before every optimizer step.
"""

import os

import torch

from tools.repro.framework_support import hf_trainer_on_this_machine, report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    classification_dataset,
    gradient_callback,
    quiet,
    shared_dir,
    tiny_bert_classifier,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="hf-trainer-fixed-ignore-mismatched-sizes",
    description="fix in transformers 5.24.0: the snippet, ignore_mismatched_sizes=True",
    expect="complete",
    role=FIXED,
    key_text=(
        "body loaded, classifier now 3 labels",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("match-the-config-or-drop-the-resized-layers", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import Trainer, TrainingArguments

    root = shared_dir()
    saved = tiny_bert_classifier(num_labels=10)
    os.makedirs(f"rank{rank}", exist_ok=True)
    os.chdir(f"rank{rank}")
    saved.save_pretrained("bert-base-uncased")
    torch.manual_seed(0)
    model = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), num_labels=3)["model"]
    assert model.classifier.out_features == 3
    assert torch.equal(
        model.bert.embeddings.word_embeddings.weight, saved.bert.embeddings.word_embeddings.weight
    )
    if rank == 0:
        print("body loaded, classifier now 3 labels")
    os.chdir(root)
    with hf_trainer_on_this_machine():
        args = quiet(
            TrainingArguments(
                output_dir=f"rank{rank}/out", ddp_backend="gloo", max_steps=4, save_strategy="no"
            )
        )
    steps = []
    Trainer(
        model=model,
        args=args,
        train_dataset=classification_dataset(rank, 3),
        callbacks=[gradient_callback(steps)],
    ).train()
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
