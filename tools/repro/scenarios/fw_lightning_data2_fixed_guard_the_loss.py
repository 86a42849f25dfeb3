"""Fix, in Lightning: the entry's own Lightning snippet (EarlyStopping(monitor="train_loss",
check_finite=True), gradient_clip_val=1.0), rendered as the wizard renders it, fits the same
saturating batches for three epochs with the probabilities clamped as the fix's PyTorch form
does, on two CPU processes under torchrun: every loss is finite, the callback never stops the
run, and every optimizer step has gradients equal across ranks."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import (
    arguments_the_script_gives,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import logistic_module
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.num_support import saturating_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="loss-nan-or-inf",
    variant="lightning-fixed-guard-the-loss",
    description="fix in Lightning 2.6.6: the snippet's EarlyStopping guard, clamped loss",
    expect="complete",
    role=FIXED,
    key_text=("9 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("guard-the-loss", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with (
        lightning_on_this_machine(accelerator="cpu", devices=world_size),
        arguments_the_script_gives(pl.Trainer, max_epochs=3),
    ):
        trainer = run_snippet(code)["trainer"]
    loader = DataLoader(saturating_batches(rank), batch_size=None)
    steps = fit_lightning(trainer, rank, module=logistic_module(clamp=True), dataloader=loader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
