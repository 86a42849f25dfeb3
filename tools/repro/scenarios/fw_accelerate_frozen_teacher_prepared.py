"""Accelerate's prepare() given a frozen teacher beside the student it distils into, two CPU
processes under torchrun: prepare wraps the teacher in DDP too, which refuses a module with no
parameter that requires a gradient.
"""

import torch
from accelerate import Accelerator

from tools.repro.framework_support import network
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="accelerate-frozen-teacher-prepared",
    description="Accelerate 1.15.0: a frozen teacher passed to accelerator.prepare()",
    expect="fail",
    role=BROKEN,
    key_text=("doesn't have any parameter that requires a gradient", "accelerate/"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    student, teacher = network(), network().requires_grad_(False)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    accelerator = Accelerator(cpu=True)
    student, teacher, optimizer = accelerator.prepare(student, teacher, optimizer)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
