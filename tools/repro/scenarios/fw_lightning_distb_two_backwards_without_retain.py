"""Lightning's DDP strategy with find_unused_parameters and a LightningModule under manual
optimization that backwards the losses of its two heads separately without retain_graph, two
CPU processes under torchrun: the second manual_backward goes through the shared trunk's graph
again, whose saved tensors the first one freed, and autograd refuses it (DDP plays no part).

With strategy="ddp" the autograd error does not come: before the second backward, Lightning's
DDPStrategy.pre_backward (lightning/pytorch/strategies/ddp.py:321) calls prepare_for_backward,
whose reducer._rebuild_buckets() finds head_b's gradient still unreduced, and Lightning raises
its own unused-parameters message (the fw_lightning_two_losses_two_backwards capture). With
find_unused_parameters the first backward marks head_b ready as unused, DDP finishes that
iteration, and the second backward reaches autograd.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_distb_support import two_backwards_without_retain_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="lightning-two-backwards-without-retain-graph",
    description="Lightning 2.6.6: two manual_backward calls without retain_graph, "
    "strategy='ddp_find_unused_parameters_true'",
    expect="fail",
    role=BROKEN,
    key_text=("Trying to backward through the graph a second time", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp_find_unused_parameters_true")
    fit_lightning(trainer, rank, check=False, module=two_backwards_without_retain_module())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
