"""Fix, in Lightning: the entry's own snippet (torch._dynamo.config.recompile_limit raised, to
the wizard's default of 64, before trainer.fit), rendered as the wizard renders it, for the
script of fw_lightning_cdv_recompile_limit: the twelve lengths each compile once, Dynamo never
hits the limit, and Lightning's DDP strategy fits the compiled module on two CPU processes under
torchrun, with gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend, varying_length_batches
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="lightning-fixed-raise-recompile-limit",
    description="fix in Lightning 2.6.6: the snippet, recompile_limit = 64 before fit",
    expect="complete",
    role=FIXED,
    key_text=("12 lengths, no recompile limit hit", "optimizer steps, gradients equal"),
    launchers=("torchrun",),
    snippet=("raise-recompile-limit", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    warnings = RecompileWarnings()
    run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    with eager_backend():
        model = torch.compile(lightning_module_class()(), dynamic=False)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=model, dataloader=varying_length_batches(rank))
    assert not warnings.count, "the recompile limit was hit"
    report_equal_gradients(steps, rank)
    if rank == 0:
        print(f"{len(steps)} lengths, no recompile limit hit")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
