"""Fix, in Lightning: the entry's own Lightning snippet (DDPStrategy(static_graph=False) with
accumulate_grad_batches=4), rendered as the wizard renders it, trains the same module on two
CPU processes, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.framework_support import (
    fit_lightning,
    lightning_on_this_machine,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="lightning-fixed-static-graph-off",
    description="fix in Lightning 2.6.6: the entry's snippet, DDPStrategy(static_graph=False)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "lightning"),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, accumulation_steps="4")
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = run_snippet(code)["trainer"]
    steps = fit_lightning(trainer, rank)
    assert steps, "the Trainer took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
