"""The entry's own Lightning snippet (EarlyStopping(monitor="train_loss", check_finite=True),
gradient_clip_val=1.0), rendered as the wizard renders it, fitting a binary cross-entropy written
out with log() over batches whose last one saturates the sigmoid (num_support.saturating_batches),
for up to three epochs, two CPU processes under torchrun: the loss of that batch is NaN; the
callback, which checks the monitored value at the end of the epoch, reports it and stops the
run after the first epoch. The run ends cleanly: what it printed is the failure's text."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import arguments_the_script_gives, work_in_temporary_directory
from tools.repro.fw_data2_support import logistic_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.num_support import saturating_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="loss-nan-or-inf",
    variant="lightning-early-stopping-check-finite",
    description="Lightning 2.6.6, the snippet's EarlyStopping(check_finite=True): a NaN loss",
    expect="complete",
    role=BROKEN,
    key_text=("Monitored metric train_loss = nan is not finite", "stopped after 1 epoch"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, "guard-the-loss", "lightning")
    with (
        lightning_on_this_machine(accelerator="cpu", devices=world_size),
        arguments_the_script_gives(pl.Trainer, max_epochs=3),
    ):
        trainer = run_snippet(code)["trainer"]
    loader = DataLoader(saturating_batches(rank), batch_size=None)
    module = logistic_module(clamp=False)
    fit_lightning(trainer, rank, check=False, module=module, dataloader=loader)
    if rank == 0:
        print(f"stopped after {trainer.current_epoch} epoch")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
