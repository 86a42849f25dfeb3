"""Fix, in Lightning: the entry's own Lightning snippet (the DDP strategy creates the process
group; the module creates none), rendered as the wizard renders it, fits the same module on
two CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import (
    gradient_check,
    lightning_on_this_machine,
    network,
    random_batches,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="lightning-fixed-init-once",
    description="fix in Lightning 2.6.6: the entry's snippet, no init_process_group() of its own",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("init-once", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    steps = []

    class LitModel(pl.LightningModule):
        """The user's module without the init_process_group() it had in setup()."""

        def __init__(self):
            super().__init__()
            self.net = network()

        def training_step(self, batch, batch_idx):
            return self.net(batch).pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

        def train_dataloader(self):
            return torch.utils.data.DataLoader(random_batches(rank), batch_size=None)

    # "auto" finds one device on a CPU: the machine the snippet is for has one per process.
    with lightning_on_this_machine(auto_devices=world_size, callbacks=[gradient_check(steps)]):
        run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), LitModel=LitModel)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
