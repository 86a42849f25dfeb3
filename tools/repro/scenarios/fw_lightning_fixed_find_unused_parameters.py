"""Fix, in Lightning: the entry's own Lightning snippet
(strategy="ddp_find_unused_parameters_true"), rendered as the wizard renders it, trains the
module with the unused layer on two CPU processes, gradients equal across ranks at every step.
"""

from tools.repro.framework_support import (
    fit_lightning,
    lightning_on_this_machine,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="lightning-fixed-find-unused-parameters",
    description="fix in Lightning 2.6.6: the entry's snippet, ddp_find_unused_parameters_true",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters", "lightning"),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = run_snippet(code)["trainer"]
    steps = fit_lightning(trainer, rank, unused=True)
    assert steps, "the Trainer took no optimizer step"
    if rank == 0:
        print(f"{len(steps)} optimizer steps, gradients equal across ranks")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
