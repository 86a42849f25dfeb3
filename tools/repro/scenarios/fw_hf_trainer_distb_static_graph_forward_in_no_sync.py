"""The Hugging Face Trainer with ddp_static_graph=True and the user's subclass whose
compute_loss runs the forward inside the DDP model's no_sync() (the Trainer's backward
outside), two CPU processes under torchrun: the first backward comes from a forward run under
no_sync(), and static_graph's first-iteration bookkeeping trips the reducer's
expect_autograd_hooks_ assertion.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.fw_distb_support import forward_in_no_sync_trainer
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="hf-trainer-static-graph-forward-in-no-sync",
    description="transformers 5.24.0 Trainer: ddp_static_graph=True, compute_loss's forward in "
    "no_sync()",
    expect="fail",
    role=BROKEN,
    key_text=("expect_autograd_hooks_ INTERNAL ASSERT FAILED", "transformers/trainer.py"),
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
    train_hf(args, rank, check=False, trainer_class=forward_in_no_sync_trainer([]))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
