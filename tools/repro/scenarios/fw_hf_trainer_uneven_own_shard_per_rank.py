"""The Hugging Face Trainer given a shard cut by hand on each rank (8 examples on rank 0, 16 on
rank 1), two CPU processes under torchrun: Accelerate's prepare() splits each rank's shard
again (2 and 4 batches of 2), so rank 0 finishes its epoch and waits in the Trainer's own
all_gather of the FLOs at the end of train() (Trainer.store_flos) while rank 1's third
backward waits in an all-reduce nobody joins, until the process group's timeout (4 s;
transformers 5.24.0 passes no ddp_timeout to Accelerate when use_cpu=True, so the script
creates the group itself first). dataloader_drop_last=True, the form the entry used to give,
changes nothing: it only drops a last incomplete batch of each rank's own shard.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import RegressionModel, work_in_temporary_directory
from tools.repro.fw_data2_support import train_hf_on
from tools.repro.fw_uneven_support import BATCH_SIZE, own_shard
from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    shows="gloo-collective-timeout",
    variant="hf-trainer-uneven-own-shard-per-rank",
    description="transformers 5.24.0 Trainer: a hand-cut shard per rank, 2 and 4 batches; hangs",
    expect="fail",
    role=BROKEN,
    # Rank 0's all_gather reports "Timed out waiting 4000ms for send operation to complete";
    # rank 1's backward reports its own timeout, or "Connection closed by peer" if rank 0 has
    # exited first: the capture holds one, the run may print the other.
    key_text=("RuntimeError", "transformers/trainer.py"),
    pg_timeout_s=4.0,  # fw_distc_support.SHORT_TIMEOUT_S
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(
        output_dir="out", use_cpu=True, ddp_backend="gloo", dataloader_drop_last=True
    )
    train_hf_on(args, RegressionModel(), own_shard(rank), check=False, batch_size=BATCH_SIZE)


if __name__ == "__main__":
    launch(main, SCENARIO)
