"""CUDA-006: torch.cuda.Stream() on a CPU-only build of torch.

Library code (a training loop that overlaps copies, as detectron2's does) opens a CUDA stream
unconditionally.  On the 2.13.0 CPU build the stream class is a stub and the error is
"RuntimeError: torch.cuda.Stream requires CUDA support".
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="cuda-stream-on-cpu-build",
    description="broken: torch.cuda.Stream() with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: torch.cuda.Stream requires CUDA support",),
)


def main(rank, world_size):
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        batch = torch.randn(8, 4)
    print(f"rank {rank}: never reached ({batch.shape})")


if __name__ == "__main__":
    launch(main, SCENARIO)
