"""Lightning's DDP strategy and a LightningModule under manual optimization that backwards the
losses of its two heads separately (manual_backward twice, retain_graph for the first), two CPU
processes under torchrun. The entry's text does not come: the first backward leaves head_b's
gradient unreduced, the next step's forward raises "Expected to have finished reduction in the
prior iteration", and Lightning rewrites that into its own unused-parameters message, the text
of ddp-unused-params-prior-reduction, whose folder the capture goes to.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_on_this_machine,
    two_backwards_module,
)

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    shows="ddp-unused-params-prior-reduction",
    variant="lightning-two-losses-two-backwards",
    description="Lightning 2.6.6: manual_backward of two losses of one forward, strategy='ddp'",
    expect="fail",
    role=BROKEN,
    key_text=("parameters that were not used in producing the loss", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=two_backwards_module())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
