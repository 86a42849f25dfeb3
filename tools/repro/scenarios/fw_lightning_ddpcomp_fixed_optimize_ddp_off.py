"""Fix, in Lightning: the entry's own snippet (torch._dynamo.config.optimize_ddp = False before
trainer.fit), rendered as the wizard renders it, for the script of
fw_lightning_ddpcomp_ddp_optimizer_split: DDPOptimizer no longer runs, the compiled
training_step is one graph holding the module's three linear layers, and Lightning's DDP
strategy fits it on two CPU processes under torchrun, with gradients equal across ranks at every
optimizer step (DDP's own hooks all-reduce them after the backward).
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="lightning-fixed-optimize-ddp-off",
    description="fix in Lightning 2.6.6: the snippet, optimize_ddp = False before fit",
    expect="complete",
    role=FIXED,
    key_text=(
        "no DDPOptimizer split: the 3 linear layers compiled as one graph",
        "optimizer steps, gradients equal",
    ),
    launchers=("torchrun",),
    snippet=("optimize-ddp-off", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    compilations = Compilations()
    run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    with compilations.traced():
        model = torch.compile(lightning_module_class(wide_network)())
        with lightning_on_this_machine(accelerator="cpu", devices=world_size):
            trainer = pl.Trainer(strategy="ddp")
        steps = fit_lightning(trainer, rank, module=model)
    compilations.report_whole(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
