"""A frozen teacher network wrapped in DDP along with the student.

A module with no parameter that requires a gradient has nothing for DDP to
synchronise, and the constructor refuses it.
"""

import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="frozen-teacher-wrapped",
    description="DDP() of a fully frozen nn.Linear (a distillation teacher) raises at once",
    expect="fail",
    key_text=(
        "DistributedDataParallel is not needed when a module doesn't have any parameter that "
        "requires a gradient.",
    ),
)


def main(rank, world_size):
    student = DDP(nn.Linear(4, 2))
    teacher = nn.Linear(4, 2).requires_grad_(False)
    teacher = DDP(teacher)
    del student, teacher


if __name__ == "__main__":
    launch(main, SCENARIO)
