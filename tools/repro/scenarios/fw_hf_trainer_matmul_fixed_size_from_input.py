"""Fix, in the Hugging Face Trainer: the entry's own snippet (a classifier that measures its
head's in_features on one example of the train_dataset, handed to the Trainer), rendered as the
wizard renders it, for the feature extractor and 12x12 images of
fw_hf_trainer_matmul_head_sized_for_other_input: the head gets 144 in_features and the Trainer
trains on two CPU processes under torchrun, with gradients equal across ranks before every
optimizer step.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import (
    script_arguments_for_the_snippet,
    train_the_snippet_s_trainer,
)
from tools.repro.fw_matmul_support import NUM_CLASSES, features, image_dataset
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="hf-trainer-fixed-size-from-input",
    description="fix in transformers 5.24.0: the snippet, in_features measured on one example",
    expect="complete",
    role=FIXED,
    key_text=("head in_features 144", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("size-layer-from-real-input", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with script_arguments_for_the_snippet(num_train_epochs=1):
        args = TrainingArguments(output_dir="out")
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(
        code,
        features=features(),
        train_dataset=image_dataset(rank),
        num_labels=NUM_CLASSES,
        args=args,
    )
    steps = train_the_snippet_s_trainer(names["trainer"], names["model"])
    report_equal_gradients(steps, rank)
    if rank == 0:
        print(f"head in_features {names['model'].head.in_features}")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
