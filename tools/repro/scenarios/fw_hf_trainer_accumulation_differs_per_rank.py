"""The Hugging Face Trainer with gradient_accumulation_steps chosen per process (4 on rank 0, 3
on rank 1, as a script that derives it from its own device's free memory does), two CPU
processes under torchrun: the Trainer leaves no_sync() at different micro-batches on each rank,
so their all-reduces no longer pair up and one rank waits until the process group's timeout.
transformers 5.24.0 passes no ddp_timeout to Accelerate when use_cpu=True, so the script
creates the process group itself first (8 s, which the Trainer then uses), or the wait would
be gloo's default 30 minutes.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    shows="gloo-collective-timeout",
    variant="hf-trainer-accumulation-differs-per-rank",
    description="transformers 5.24.0 Trainer: gradient_accumulation_steps 4 on rank 0, 3 on 1",
    expect="fail",
    role=BROKEN,
    # The waiting rank's backward reports the timeout as "Application timeout caused pair
    # closure" or as "Timed out waiting ... for recv operation to complete", whichever of
    # gloo's threads notices first: the capture holds one, the run may print the other.
    key_text=("RuntimeError", "transformers/trainer.py"),
    pg_timeout_s=8.0,
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out",
        use_cpu=True,
        ddp_backend="gloo",
        gradient_accumulation_steps=4 if rank == 0 else 3,
        num_train_epochs=1,
    )
    train_hf(args, rank, check=False)


if __name__ == "__main__":
    launch(main, SCENARIO)
