"""Fix, in Accelerate: the entry's own snippet (one accelerator.backward of the sum of the two
losses), rendered as the wizard renders it, is the loop of the script that prepared its
two-headed model, on two CPU processes under torchrun, with gradients equal across ranks at
every optimizer step.
"""

import torch

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.framework_support import TwoHeads, loss_fn_a, loss_fn_b, report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-fixed-single-backward",
    description="fix in Accelerate 1.15.0: the snippet, one backward of the summed losses",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    from accelerate import Accelerator

    model = TwoHeads()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_every_optimizer_step(model)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = accelerator.prepare(
        model, optimizer, accelerate_names(rank)["dataloader"]
    )
    run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        accelerator=accelerator,
        model=model,
        optimizer=optimizer,
        dataloader=dataloader,
        loss_fn_a=loss_fn_a,
        loss_fn_b=loss_fn_b,
    )
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
