"""NUM-008: CPU autocast (bf16) runs the backbone; the head's matrix multiplication runs after
the with block, so a bf16 activation meets a float32 weight and the matmul's dtype check
raises in forward on every rank."""

import torch

from tools.repro.harness import Scenario, launch
from tools.repro.num_support import regression_batches

SCENARIO = Scenario(
    slug="autocast-dtype-mismatch",
    variant="bf16-activation-outside-autocast",
    description="CPU autocast bf16 backbone, float32 head applied after the with block",
    expect="fail",
    key_text=(
        "RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    backbone = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 8))
    head = torch.randn(8, 2, requires_grad=True)
    for inputs, targets in regression_batches(rank):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            features = backbone(inputs)
        outputs = features @ head  # outside autocast: bf16 @ float32
        loss = torch.nn.functional.mse_loss(outputs, targets)
        loss.backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
