"""CUDA-006: torch.cuda.current_device() on a CPU-only build of torch.

Logging or device-placement code asks which GPU it is on.  On the 2.13.0 CPU build,
current_device() initialises CUDA lazily and raises "AssertionError: Torch not compiled with CUDA
enabled" from torch/cuda/__init__.py.
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="current-device-on-cpu-build",
    description="broken: torch.cuda.current_device() with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("AssertionError: Torch not compiled with CUDA enabled",),
)


def main(rank, world_size):
    print(f"rank {rank}: training on cuda:{torch.cuda.current_device()}")


if __name__ == "__main__":
    launch(main, SCENARIO)
