"""The Hugging Face Trainer and a Trainer subclass that does 5 s of work on rank 0 only before
the second step (a checkpoint written), two CPU processes under torchrun: rank 1 goes on to
the second step's all-reduce and gives up waiting for rank 0 after the process group's
timeout. transformers 5.24.0 passes no ddp_timeout to Accelerate when use_cpu=True
(training_args.py, the use_cpu branch), so the script creates the process group itself first
(4 s, which the Trainer then uses).
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.fw_distc_support import late_rank_trainer
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="hf-trainer-rank-0-late-for-all-reduce",
    description="transformers 5.24.0 Trainer: timeout 4 s, rank 0 busy 5 s before step 2",
    expect="fail",
    role=BROKEN,
    # The waiting rank's backward reports the timeout as "Application timeout caused pair
    # closure" or as "Timed out waiting 4000ms for recv operation to complete", whichever of
    # gloo's threads notices first: the capture holds one, the run may print the other.
    key_text=("RuntimeError", "transformers/trainer.py"),
    pg_timeout_s=4.0,  # SHORT_TIMEOUT_S
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(output_dir="out", use_cpu=True, ddp_backend="gloo", num_train_epochs=1)
    train_hf(args, rank, check=False, trainer_class=late_rank_trainer(rank))


if __name__ == "__main__":
    launch(main, SCENARIO)
