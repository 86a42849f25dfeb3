"""Fix, in Lightning: the entry's own snippet (a training_step that returns the sum of the two
losses, so Lightning runs one backward), rendered as the wizard renders it and taken into the
user's module, fits on two CPU processes under torchrun, with gradients equal across ranks at
every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import (
    loss_fn_a,
    loss_fn_b,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import (
    TwoHeadsModule,
    fit_lightning,
    lightning_on_this_machine,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="lightning-fixed-single-backward",
    description="fix in Lightning 2.6.6: the snippet, one loss returned from training_step",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    snippet = run_snippet(code, loss_fn_a=loss_fn_a, loss_fn_b=loss_fn_b)

    class LitModel(TwoHeadsModule, snippet["LitModel"]):
        pass

    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, module=LitModel()), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
