"""Fix, in Accelerate: the entry's own snippet (prepare the student and its optimizer, move the
frozen teacher to the device yourself), rendered as the wizard renders it, then the user's
distillation loop on two CPU processes under torchrun, the student's gradients equal across
ranks at every optimizer step.
"""

import torch

from tools.repro.accelerate_support import accelerate_on_this_machine
from tools.repro.distill_support import distillation_loss, teacher_network
from tools.repro.framework_support import network, random_batches, report_equal_gradients
from tools.repro.harness import (
    FIXED,
    Scenario,
    check_every_optimizer_step,
    launch_without_group,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-no-trainable-params",
    variant="accelerate-fixed-do-not-wrap-frozen",
    description="fix in Accelerate 1.15.0: the snippet, the frozen teacher kept out of prepare()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("do-not-wrap-frozen", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    student, teacher = network(), teacher_network().requires_grad_(False)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    steps = check_every_optimizer_step(student)
    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            student=student,
            teacher=teacher,
            optimizer=optimizer,
        )
    student, teacher, optimizer = names["student"], names["teacher"], names["optimizer"]
    for batch in random_batches(rank):
        names["accelerator"].backward(distillation_loss(student(batch), teacher, batch))
        optimizer.step()
        optimizer.zero_grad()
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
