"""CUDA-006: torch.cuda.set_device(local_rank) on a CPU-only build of torch.

The usual first line of a DDP script on GPUs.  On the 2.13.0 CPU build, set_device does not go
through torch.cuda._lazy_init: it calls the C extension directly, which has no CUDA functions, so
the error is "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'", a wording
that does not mention CUDA being absent at all.
"""

import torch

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="set-device-on-cpu-build",
    description="broken: torch.cuda.set_device(rank) with the CPU build of torch",
    expect="fail",
    role=BROKEN,
    key_text=("AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'",),
)


def main(rank, world_size):
    torch.cuda.set_device(rank)
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
