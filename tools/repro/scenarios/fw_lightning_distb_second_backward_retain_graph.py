"""Lightning's DDP strategy and a LightningModule under manual optimization that backwards a
second loss over the same output (manual_backward(main, retain_graph=True), then
manual_backward(aux)), two CPU processes under torchrun: unlike plain DDP, where the second
backward's gradients stay local, both are all-reduced. Lightning arms the reducer again before
each manual_backward (DDPStrategy.pre_backward, lightning/pytorch/strategies/ddp.py:321, calls
prepare_for_backward), so the second backward is synchronised like the first.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distb_support import lightning_manual_module, report_gradients
from tools.repro.harness import NO_REPRO, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="lightning-second-backward-retain-graph",
    description="Lightning 2.6.6: two manual_backward calls over one output; stays synced",
    expect="complete",
    role=NO_REPRO,
    key_text=("optimizer steps: gradients equal across ranks",),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    equal = []
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(
        trainer, rank, check=False, module=lightning_manual_module("second-backward", equal)
    )
    report_gradients(equal, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
