"""SHARD-002: FSDP1 over a model with a bf16 layer and an fp32 layer in one unit.

A half-precision base with an fp32 head: FSDP cannot flatten two dtypes into one FlatParameter
and refuses while wrapping, naming both ("Must flatten tensors with uniform dtype but got
torch.bfloat16 and torch.float32"); use_orig_params=True would not change it.
"""

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.shard_dev_support import two_dtype_stack

SCENARIO = Scenario(
    slug="fsdp-uniform-dtype",
    variant="fsdp1-bf16-and-fp32-layers",
    description="broken: FSDP1 over a bf16 layer and an fp32 layer (use_orig_params=True)",
    expect="fail",
    role=BROKEN,
    key_text=(
        "ValueError: Must flatten tensors with uniform dtype"
        " but got torch.bfloat16 and torch.float32",
    ),
)


def main(rank, world_size):
    model = FSDP(two_dtype_stack(), use_orig_params=True, device_id=torch.device("cpu"))
    print(f"rank {rank}: never reached {model}")


if __name__ == "__main__":
    launch(main, SCENARIO)
