"""Lightning's DDP strategy fitting a LightningModule the script compiled with torch.compile,
run as a user bisecting a compile problem runs it, with TORCH_LOGS="distributed,ddp_graphs", on
two CPU processes under torchrun: Lightning runs the compiled training_step inside DDP's forward,
so Dynamo hands its graph to DDPOptimizer (the default optimize_ddp=True), which logs "DDPOptimizer
used bucket cap 26214400 and created 2 buckets" and dumps the split, "---submod_0 graph---" and
"---submod_1 graph---", one graph per gradient bucket of the module's 1 MiB of parameters
(fw_ddpcomp_support.wide_network). A log, not a failure: the fit completes with gradients equal
across ranks. (The graphs are compiled by an eager backend: fw_ddpcomp_support.Compilations.)
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="lightning-ddp-optimizer-split",
    description="Lightning 2.6.6: torch.compile(module), strategy='ddp', TORCH_LOGS ddp_graphs",
    expect="complete",
    role=BROKEN,
    key_text=(
        "DDPOptimizer used bucket cap 26214400 and created 2 buckets",
        "[__ddp_graphs] ---submod_1 graph---",
        "DDPOptimizer split the compiled step into 2 graphs",
    ),
    env={"TORCH_LOGS": "distributed,ddp_graphs"},
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    compilations = Compilations()
    with compilations.traced():
        model = torch.compile(lightning_module_class(wide_network)())
        with lightning_on_this_machine(accelerator="cpu", devices=world_size):
            trainer = pl.Trainer(strategy="ddp")
        steps = fit_lightning(trainer, rank, module=model)
    compilations.report_split(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
