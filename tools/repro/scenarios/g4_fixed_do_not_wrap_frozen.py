"""Fix: the entry's snippet wraps only the module that trains; the frozen teacher stays a plain
module.

The student and frozen teacher of g4_no_trainable_params, trained by the entry's plain-PyTorch
do-not-wrap-frozen snippet (distillation: the teacher's outputs under no_grad are the student's
targets), where the broken run's DDP(teacher) raised.  This machine has no GPU, so the snippet
wraps the student without device_ids.  The student's gradients are compared across ranks after
every optimizer step.
"""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="fixed-teacher-not-wrapped",
    description="fix (the entry's snippet): DDP() around the student only; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("2 distillation steps done, gradients equal across ranks",),
    snippet=("do-not-wrap-frozen", "pytorch"),
)

STEPS = 2


def main(rank, world_size):
    torch.manual_seed(0)
    student = nn.Linear(4, 2)
    teacher = nn.Linear(4, 2).requires_grad_(False)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    steps = check_each_step(optimizer, student)
    torch.manual_seed(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    run_snippet(
        code,
        student=student,
        teacher=teacher,
        optimizer=optimizer,
        batch=torch.randn(8, 4),
        num_training_steps=STEPS,
        local_rank=rank,
    )
    assert len(steps) == STEPS, f"{len(steps)} optimizer steps"
    if rank == 0:
        print(f"{STEPS} distillation steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
