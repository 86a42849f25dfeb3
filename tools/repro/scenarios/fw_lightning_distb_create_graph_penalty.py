"""Lightning's DDP strategy fitting a LightningModule under manual optimization that builds a
gradient penalty the naive way (as g2_create_graph_backward does in plain PyTorch):
manual_backward(loss, create_graph=True), then a second manual_backward of the squared .grad.
Lightning's manual_backward hands create_graph to the backward through DDP, whose reducer logs
"Using DistributedDataParallel with create_graph=True is not well-supported" and then fails it,
"a leaf Variable that requires grad is being used in an in-place operation." (Lightning 2.6.6,
two CPU processes under torchrun).
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import TanhNetModule, fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="lightning-manual-backward-create-graph",
    description="Lightning 2.6.6: manual_backward(loss, create_graph=True) for a gradient penalty",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Using DistributedDataParallel with create_graph=True",
        "a leaf Variable that requires grad is being used in an in-place operation",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


class PenaltyByBackward(TanhNetModule, pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        optimizer = self.optimizers()
        self.manual_backward(self.model(batch).pow(2).mean(), create_graph=True)
        penalty = sum(p.grad.pow(2).sum() for p in self.model.parameters())
        self.manual_backward(penalty)
        optimizer.step()
        optimizer.zero_grad()


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=PenaltyByBackward())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
