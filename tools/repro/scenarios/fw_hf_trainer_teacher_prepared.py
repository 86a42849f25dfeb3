"""A distillation Trainer, two CPU processes under torchrun, that hands its frozen teacher to
the Trainer's own Accelerator as an Accelerate script hands every model to prepare(): prepare
wraps the teacher in DDP, which refuses a module with no parameter that requires a gradient.
"""

from transformers import Trainer, TrainingArguments

from tools.repro.distill_support import TrainerDistillation, teacher_network
from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="hf-trainer-teacher-prepared",
    description="transformers 5.24.0 Trainer: a frozen teacher passed to the Trainer's prepare()",
    expect="fail",
    role=BROKEN,
    key_text=("doesn't have any parameter that requires a gradient", "accelerate/"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


class DistillTrainer(TrainerDistillation, Trainer):
    def __init__(self, *args, teacher=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = self.accelerator.prepare(teacher.eval().requires_grad_(False))


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(output_dir="out", use_cpu=True, ddp_backend="gloo", num_train_epochs=1)
    train_hf(args, rank, check=False, trainer_class=DistillTrainer, teacher=teacher_network())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
