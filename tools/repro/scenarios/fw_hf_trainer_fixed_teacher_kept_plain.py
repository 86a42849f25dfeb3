"""Fix, in the Hugging Face Trainer: the entry's own snippet (a Trainer subclass that keeps the
frozen teacher as a plain module on the device), rendered as the wizard renders it and given
the user's distillation loss, trains on two CPU processes under torchrun, the student's
gradients equal across ranks before every optimizer step.
"""

from tools.repro.distill_support import TrainerDistillation, teacher_network
from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="hf-trainer-fixed-teacher-kept-plain",
    description="fix in the transformers 5.24.0 Trainer: the snippet, the teacher not wrapped",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("do-not-wrap-frozen", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))

    class DistillTrainer(TrainerDistillation, snippet["DistillTrainer"]):
        pass

    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    steps = train_hf(args, rank, trainer_class=DistillTrainer, teacher=teacher_network())
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
