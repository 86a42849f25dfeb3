"""Lightning's DDP strategy and a LightningModule under manual optimization that backwards the
losses of its two heads separately (manual_backward twice, retain_graph for the first), two CPU
processes under torchrun. The entry's text does not come: the first backward leaves head_b's
gradient unreduced, the next step's forward raises "Expected to have finished reduction in the
prior iteration", and Lightning rewrites that into its own unused-parameters message, the text
of ddp-unused-params-prior-reduction, whose folder the capture goes to.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import loss_fn_a, loss_fn_b, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    TwoHeadsModule,
    fit_lightning,
    lightning_on_this_machine,
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


class LitModel(TwoHeadsModule, pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        optimizer = self.optimizers()
        out_a, out_b = self.model(batch)
        self.manual_backward(loss_fn_a(out_a), retain_graph=True)
        self.manual_backward(loss_fn_b(out_b))
        optimizer.step()
        optimizer.zero_grad()


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=LitModel())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
