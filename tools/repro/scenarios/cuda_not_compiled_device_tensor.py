"""CUDA-006: a tensor created on torch.device("cuda") on a CPU-only build of torch.

The script builds its batches directly on the GPU (torch.randn(..., device=device) with device =
torch.device("cuda")).  On the 2.13.0 CPU build the factory function initialises CUDA lazily and
fails with "AssertionError: Torch not compiled with CUDA enabled".
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="device-tensor-on-cpu-build",
    description="broken: torch.randn(..., device=torch.device('cuda')) with the CPU build",
    expect="fail",
    role=BROKEN,
    key_text=("AssertionError: Torch not compiled with CUDA enabled",),
)


def main(rank, world_size):
    device = torch.device("cuda")
    batch = torch.randn(8, 4, device=device)
    print(f"rank {rank}: never reached ({batch.shape})")


if __name__ == "__main__":
    launch(main, SCENARIO)
