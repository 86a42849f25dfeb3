"""Accelerate with gradient_accumulation_steps chosen per process (4 on rank 0, 3 on rank 1, as
a script that derives it from its own device's free memory does), two CPU processes under
torchrun: accelerator.accumulate() leaves no_sync() at different micro-batches on each rank, so
their all-reduces no longer pair up and rank 1 waits in one while rank 0 waits in the script's
closing wait_for_everyone(), until the process group's timeout (8 s here, through
InitProcessGroupKwargs).
"""

from datetime import timedelta

from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    shows="gloo-collective-timeout",
    variant="accelerate-accumulation-differs-per-rank",
    description="Accelerate 1.15.0: gradient_accumulation_steps 4 on rank 0, 3 on rank 1; hangs",
    expect="fail",
    role=BROKEN,
    key_text=("Timed out waiting", "accelerate/"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True,
        gradient_accumulation_steps=4 if rank == 0 else 3,
        kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=8))],
    )
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        with accelerator.accumulate(model):
            accelerator.backward(model(batch))
            optimizer.step()
            optimizer.zero_grad()
    accelerator.wait_for_everyone()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
