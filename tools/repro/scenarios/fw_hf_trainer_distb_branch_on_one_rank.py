"""The Hugging Face Trainer with ddp_find_unused_parameters=False and a model whose network runs a
layer on rank 0 only (a data-dependent branch), two CPU processes under torchrun: rank 1 never
reports that layer's gradient, so its bucket is all-reduced on rank 0 alone; rank 1 runs its
next forward and raises "Expected to have finished reduction in the prior iteration", the text
of ddp-unused-params-prior-reduction, whose folder the capture goes to, while rank 0 loses its
peer. The process group's timeout is 8 s (ddp_timeout) should both wait instead.

Left unset, ddp_find_unused_parameters is True for a model that is no PreTrainedModel, or one
not checkpointing (transformers/trainer.py:749-756 in 5.24.0), and the run trains: the failure
needs the flag turned off, as a script does to silence DDP's find_unused_parameters warning.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.fw_distb_support import BranchOnRankZero
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    shows="ddp-unused-params-prior-reduction",
    variant="hf-trainer-branch-used-on-one-rank",
    description="transformers 5.24.0 Trainer: ddp_find_unused_parameters=False, a layer used on "
    "rank 0 only",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Expected to have finished reduction in the prior iteration",
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
        ddp_timeout=8,
        ddp_find_unused_parameters=False,
        num_train_epochs=1,
    )
    train_hf(args, rank, net=BranchOnRankZero, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
