"""Lightning's DDPStrategy(static_graph=True) and a LightningModule whose auxiliary head takes
part in the first step only (a warm-up loss term), two CPU processes under torchrun:
static_graph took the first iteration's graph for every iteration's, the second step leaves
the head's reduction unfinished, and the third forward refuses to start. The static-graph
wording does not come: Lightning rewrites every "Expected to have finished reduction in the
prior iteration" into its own unused-parameters message (DDPStrategy.on_exception), the text
of ddp-unused-params-prior-reduction, whose folder the capture goes to.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    shows="ddp-unused-params-prior-reduction",
    variant="lightning-static-graph-head-first-step-only",
    description="Lightning 2.6.6: DDPStrategy(static_graph=True), a head used in step 1 only",
    expect="fail",
    role=BROKEN,
    key_text=("parameters that were not used in producing the loss", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=DDPStrategy(static_graph=True, process_group_backend="gloo"))
    fit_lightning(trainer, rank, net=AuxHeadFirst, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
