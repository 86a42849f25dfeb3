"""The entry's own Lightning snippet for bounding host memory per host (the rank's DataLoader
with num_workers=2), rendered as the wizard renders it, over this rank's rows: Lightning's DDP
strategy trains with it on two CPU processes under torchrun, two worker processes each, with
gradients equal across ranks at every optimizer step. What it checks is that the snippet works
in the pinned Lightning; the out-of-memory kill is not provoked.
"""

import torch

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="lightning-fixed-two-loader-workers",
    description="fix in Lightning 2.6.6: the snippet, DataLoader(..., num_workers=2)",
    expect="complete",
    role=FIXED,
    key_text=("loader workers: 2", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("bound-host-memory-per-host", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    import lightning.pytorch as pl

    work_in_temporary_directory()
    # This rank's own rows (different on every rank), 2 batches of the snippet's 16.
    dataset = list(torch.randn(32, 4, generator=torch.Generator().manual_seed(rank)))
    loader = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), dataset=dataset)
    loader = loader["train_loader"]
    if rank == 0:
        print("loader workers:", loader.num_workers)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, dataloader=loader), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
