"""Accelerate and a script that backwards the losses of its two heads separately without
retain_graph, two CPU processes under torchrun: the second accelerator.backward goes through the
shared trunk's graph again, whose saved tensors the first one freed, and autograd refuses it
(DDP plays no part).
"""

from accelerate import Accelerator

from tools.repro.fw_distb_support import train_two_backwards_without_retain
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="accelerate-two-backwards-without-retain-graph",
    description="Accelerate 1.15.0: accelerator.backward of two losses of one forward, no retain",
    expect="fail",
    role=BROKEN,
    key_text=("Trying to backward through the graph a second time", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    train_two_backwards_without_retain(Accelerator(cpu=True), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
