"""CFG-006 fix: convert to SyncBatchNorm only for GPU training.

On CPU the model keeps plain BatchNorm (each rank normalises with its own
batch statistics), DDP accepts it and training proceeds with equal gradients.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.scenarios.g3_syncbn_cpu_ddp import net

SCENARIO = Scenario(
    slug="syncbn-misuse",
    variant="fixed-convert-on-gpu-only",
    description="fix: SyncBatchNorm only when training on GPUs; plain BatchNorm on CPU",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = net()
    if torch.cuda.is_available():
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model).cuda()
    model = DDP(model)
    torch.manual_seed(rank)
    model(torch.randn(8, 4)).pow(2).mean().backward()
    assert grads_match_across_ranks(model), "gradients differ across ranks"
    if rank == 0:
        print("1 step done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
