"""The Hugging Face Trainer with ddp_static_graph=True and a model whose auxiliary head takes
part in the first step only (a warm-up loss term), two CPU processes under torchrun:
static_graph took the first iteration's graph for every iteration's, the second step leaves
the head's reduction unfinished, and the third forward refuses to start.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="hf-trainer-static-graph-head-first-step-only",
    description="transformers 5.24.0 Trainer: ddp_static_graph=True, a head used in step 1 only",
    expect="fail",
    role=BROKEN,
    key_text=(
        "one parameter is used in first iteration, but then got unused in the second iteration",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out",
        use_cpu=True,
        ddp_backend="gloo",
        ddp_static_graph=True,
        num_train_epochs=1,
    )
    train_hf(args, rank, net=AuxHeadFirst, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
