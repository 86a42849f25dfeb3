"""CUDA-006: model.cuda() on a CPU-only build of torch.

A training script written for GPU nodes moves its model to the GPU before the first step.  The
lab's torch is the 2.13.0 CPU build, so torch.cuda._lazy_init refuses with "AssertionError: Torch
not compiled with CUDA enabled", on every rank, before any training.
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch
from tools.repro.models import LinearLoss

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="model-cuda-on-cpu-build",
    description="broken: model.cuda() with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("AssertionError: Torch not compiled with CUDA enabled",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = LinearLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(8, 4).cuda())
    loss.backward()
    optimizer.step()
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
