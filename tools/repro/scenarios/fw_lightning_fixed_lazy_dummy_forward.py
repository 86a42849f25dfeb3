"""Fix, in Lightning: the entry's own Lightning snippet (a setup() that runs the lazy module on
its example input before the strategy wraps it), rendered as the wizard renders it and taken
into the user's LightningModule, fits on two CPU processes under torchrun, with gradients equal
across ranks at every optimizer step.
"""

import lightning.pytorch as pl
import torch
import torch.nn as nn

from tools.repro.framework_support import (
    random_batches,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import gradient_check, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uninitialized-lazy-params",
    variant="lightning-fixed-lazy-dummy-forward",
    description="fix in Lightning 2.6.6: the entry's snippet, a dummy forward in setup()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("dummy-forward-before-wrapping", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    steps = []
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))

    class UsersModule:
        """The rest of the user's LightningModule: the lazy model and its training."""

        def __init__(self):
            super().__init__()
            self.model = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.Linear(8, 1))
            self.example_input_array = torch.zeros(4, 4)

        def training_step(self, batch, batch_idx):
            return self.model(batch).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    class LitModel(UsersModule, snippet["LitModel"]):
        pass

    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp", callbacks=[gradient_check(steps)])
    trainer.fit(LitModel(), torch.utils.data.DataLoader(random_batches(rank), batch_size=None))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
