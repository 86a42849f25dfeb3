"""CFG-006: a model converted to SyncBatchNorm wrapped in DDP on CPU.

``nn.SyncBatchNorm.convert_sync_batchnorm`` is applied unconditionally (the
script was written for GPUs); on CPU, DDP's constructor refuses the module:
"SyncBatchNorm layers only work with GPU modules".
"""

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="syncbn-misuse",
    variant="syncbn-model-on-cpu",
    description="broken: DDP of a CPU model converted to SyncBatchNorm",
    expect="fail",
    role=BROKEN,
    key_text=("SyncBatchNorm layers only work with GPU modules",),
)


def net():
    return nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))


def main(rank, world_size):
    model = nn.SyncBatchNorm.convert_sync_batchnorm(net())
    DDP(model)
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
