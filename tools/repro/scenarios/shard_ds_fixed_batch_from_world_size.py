"""SHARD-003 fix, the arithmetic only: the entry's DeepSpeed snippet computes train_batch_size
from the world size of the running group.

DeepSpeed is not installed in the lab (its 0.19.8 sdist builds against torch), so this runs the
snippet on a config written for 8 GPUs (train_batch_size 64) under a 2-rank gloo group and
asserts DeepSpeed's own rule, train_batch_size == micro batch * accumulation * world size.
"""

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="deepspeed-batch-size-mismatch",
    variant="fixed-batch-from-world-size",
    description="fix (the entry's snippet): train_batch_size from the real world size",
    expect="complete",
    role=FIXED,
    key_text=("train_batch_size 16 == 4 * 2 * 2",),
    snippet=("batch-from-world-size", "deepspeed"),
)


def main(rank, world_size):
    ds_config = {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4}  # written for 8 GPUs
    code = fix_snippet(
        SCENARIO.slug, *SCENARIO.snippet, shard_micro_batch_size="4", shard_accumulation_steps="2"
    )
    run_snippet(code, ds_config=ds_config)
    micro = ds_config["train_micro_batch_size_per_gpu"]
    accumulation = ds_config["gradient_accumulation_steps"]
    total = ds_config["train_batch_size"]
    assert total == micro * accumulation * world_size, ds_config
    if rank == 0:
        print(f"train_batch_size {total} == {micro} * {accumulation} * {world_size}")


if __name__ == "__main__":
    launch(main, SCENARIO)
