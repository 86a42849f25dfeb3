"""Lightning's DDP strategy fitting a LightningModule the script compiled with
torch.compile(model, dynamic=False), on batches of twelve sequence lengths (as
comp_recompile_limit_varying_lengths): every new length fails a size guard and compiles again,
until Dynamo hits config.recompile_limit (8), logs it and runs the training_step in eager mode
for the rest of the epoch; the fit completes, without compilation, on two CPU processes under
torchrun. (The graphs are traced with the eager backend: fw_cdv_support.eager_backend; the
guards and the limit are Dynamo's.)
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend, varying_length_batches
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="lightning-compiled-varying-lengths",
    description="Lightning 2.6.6: torch.compile(module, dynamic=False) over 12 sequence lengths",
    expect="complete",
    role=BROKEN,
    key_text=("torch._dynamo hit config.recompile_limit (8)", "size mismatch at index 1"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    warnings = RecompileWarnings()
    with eager_backend():
        model = torch.compile(lightning_module_class()(), dynamic=False)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    fit_lightning(trainer, rank, check=False, module=model, dataloader=varying_length_batches(rank))
    assert warnings.count, "the recompile limit was not reached"


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
