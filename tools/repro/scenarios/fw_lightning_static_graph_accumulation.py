"""Lightning's DDPStrategy(static_graph=True) with accumulate_grad_batches=4, on two CPU
processes: Lightning enters model.no_sync() for the forward and backward of every non-final
micro-batch itself, so the first backward of the static graph runs unsynchronised and the
reducer's assertion fires at the first synchronised backward, in the user's own Trainer.fit.
"""

import lightning.pytorch as pl
from lightning.pytorch.strategies import DDPStrategy

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="lightning-static-graph-accumulation",
    description="Lightning 2.6.6: DDPStrategy(static_graph=True) with accumulate_grad_batches=4",
    expect="fail",
    role=BROKEN,
    key_text=("expect_autograd_hooks_ INTERNAL ASSERT FAILED", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    trainer = pl.Trainer(
        accelerator="cpu",
        devices=world_size,
        strategy=DDPStrategy(static_graph=True, process_group_backend="gloo"),
        accumulate_grad_batches=4,
        max_epochs=1,
        enable_checkpointing=False,
        logger=False,
        use_distributed_sampler=False,
    )
    fit_lightning(trainer, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
