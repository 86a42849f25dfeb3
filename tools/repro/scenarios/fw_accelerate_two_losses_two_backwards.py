"""Accelerate and a script that backwards the losses of its two heads separately
(accelerator.backward twice, retain_graph for the first), two CPU processes under torchrun: the
second backward reports the shared trunk's gradients again, and DDP refuses to mark them ready
twice.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import train_two_backwards
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-two-losses-two-backwards",
    description="Accelerate 1.15.0: accelerator.backward of two losses of one forward",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to mark a variable ready only once", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    train_two_backwards(Accelerator(cpu=True), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
