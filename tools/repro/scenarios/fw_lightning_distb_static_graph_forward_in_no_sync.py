"""Lightning's DDPStrategy(static_graph=True) and a LightningModule under manual optimization
that accumulates by hand, every micro-batch's forward inside the DDP model's no_sync() and
manual_backward outside, two CPU processes under torchrun: no expect_autograd_hooks_
assertion, and the gradients stay synchronised. Lightning runs training_step inside the DDP
model's forward and arms the reducer at manual_backward itself (DDPStrategy.pre_backward,
lightning/pytorch/strategies/ddp.py:321), outside the script's no_sync(), so no backward
arrives unarmed.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distb_support import lightning_manual_module, report_gradients
from tools.repro.harness import NO_REPRO, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="lightning-static-graph-forward-in-no-sync",
    description="Lightning 2.6.6: static_graph=True, forward in no_sync(), manual_backward "
    "outside; completes",
    expect="complete",
    role=NO_REPRO,
    key_text=("optimizer steps: gradients equal across ranks",),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    equal = []
    strategy = DDPStrategy(static_graph=True, process_group_backend="gloo")
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy=strategy)
    fit_lightning(
        trainer, rank, check=False, module=lightning_manual_module("no_sync-forward", equal)
    )
    report_gradients(equal, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
