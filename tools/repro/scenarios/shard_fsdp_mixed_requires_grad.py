"""SHARD-001: FSDP1 (use_orig_params=False) over a model whose first layer is frozen.

The PEFT situation in miniature: one wrapped unit holds frozen and trainable parameters, so FSDP
cannot flatten them into one FlatParameter and refuses while wrapping, on every rank, before
any step ("Must flatten tensors with uniform `requires_grad` when `use_orig_params=False`").
"""

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.shard_dev_support import partly_frozen_stack

SCENARIO = Scenario(
    slug="fsdp-uniform-requires-grad",
    variant="fsdp1-partly-frozen-model",
    description="broken: FSDP1, use_orig_params=False, first layer frozen",
    expect="fail",
    role=BROKEN,
    key_text=(
        "ValueError: Must flatten tensors with uniform `requires_grad`"
        " when `use_orig_params=False`",
    ),
)


def main(rank, world_size):
    model = FSDP(partly_frozen_stack(), use_orig_params=False, device_id=torch.device("cpu"))
    print(f"rank {rank}: never reached {model}")


if __name__ == "__main__":
    launch(main, SCENARIO)
