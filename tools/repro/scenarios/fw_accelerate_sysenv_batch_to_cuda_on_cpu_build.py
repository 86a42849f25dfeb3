"""An Accelerate script written for GPU nodes that still moves each batch with
`batch.to("cuda")` after prepare(), on the CPU build of torch 2.13.0 (Accelerate 1.15.0, two
processes under torchrun): torch refuses with "AssertionError: Torch not compiled with CUDA
enabled" at the first batch, on every rank.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="accelerate-batch-to-cuda-on-cpu-build",
    description='Accelerate 1.15.0: batch.to("cuda") after prepare(), on a CPU build',
    expect="fail",
    role=BROKEN,
    key_text=("AssertionError: Torch not compiled with CUDA enabled",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = accelerator.prepare(
        script["model"], script["optimizer"], script["dataloader"]
    )
    for batch in dataloader:
        loss = model(batch.to("cuda"))
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
