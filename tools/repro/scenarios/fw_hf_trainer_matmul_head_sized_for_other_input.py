"""The Hugging Face Trainer training the user's classifier whose head was sized for 8x8 images
on a dataset of 12x12 ones (as dev_classifier_sized_for_other_input): the first compute_loss
fails in the Trainer's frames with "mat1 and mat2 shapes cannot be multiplied (2x144 and
64x3)", on both CPU processes under torchrun. (A transformers model checks the image size
itself: a ViTForImageClassification fed 12x12 images says "Input image size (12*12) doesn't
match model (8*8)", not this; the mismatch is the user's own head's.)
"""

from transformers import TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_data2_support import train_hf_on
from tools.repro.fw_matmul_support import TrainerClassifierSizedFor8x8, image_dataset
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="hf-trainer-head-sized-for-other-input",
    description="transformers 5.24.0: head sized for 8x8 images, trained on 12x12 ones",
    expect="fail",
    role=BROKEN,
    key_text=(
        "in compute_loss",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x144 and 64x3)",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", num_train_epochs=1)
    train_hf_on(args, TrainerClassifierSizedFor8x8(), image_dataset(rank), check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
