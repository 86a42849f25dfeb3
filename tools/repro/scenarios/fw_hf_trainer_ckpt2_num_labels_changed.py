"""A Trainer script that loads a 10-label sequence classifier (a tiny BERT saved with
save_pretrained in a folder named bert-base-uncased, nothing downloaded) with num_labels=3:
transformers 5.24.0 reports the classifier's shapes as MISMATCH and raises in from_pretrained,
before the Trainer starts, on two CPU processes under torchrun.
"""

from transformers import AutoModelForSequenceClassification

from tools.repro.fw_ckpt2_support import shared_dir, tiny_bert_classifier
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="hf-trainer-num-labels-changed",
    description="transformers 5.24.0: from_pretrained(num_labels=3) of a 10-label classifier",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Reinit due to size mismatch - ckpt: torch.Size([10, 8]) vs model:torch.Size([3, 8])",
        "You set `ignore_mismatched_sizes` to `False`, thus raising an error.",
        "transformers/modeling_utils.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    shared_dir()
    tiny_bert_classifier(num_labels=10).save_pretrained(f"rank{rank}/bert-base-uncased")
    AutoModelForSequenceClassification.from_pretrained(
        f"rank{rank}/bert-base-uncased", num_labels=3
    )
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
