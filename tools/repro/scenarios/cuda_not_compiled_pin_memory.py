"""CUDA-006: tensor.pin_memory() on a CPU-only build of torch.

A data pipeline pins its batches for a fast copy to the GPU.  On the 2.13.0 CPU build there is no
accelerator to pin for, and the error is "RuntimeError: Cannot access accelerator device when
none is available.", which names no CUDA at all.  (A DataLoader with pin_memory=True only warns
and carries on; the explicit call fails.)
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="pin-memory-on-cpu-build",
    description="broken: batch.pin_memory() with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: Cannot access accelerator device when none is available.",),
)


def main(rank, world_size):
    batch = torch.randn(8, 4).pin_memory()
    print(f"rank {rank}: never reached ({batch.shape})")


if __name__ == "__main__":
    launch(main, SCENARIO)
