"""Fix, in Lightning: the entry's own Lightning snippet (the file_system sharing strategy, set
at the top of the script), rendered as the wizard renders it, fits the same kept batches of 32
tensors under the same open-file limit on two CPU processes under torchrun: every batch arrives,
with gradients equal across ranks at every optimizer step."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import batch_module, limit_files_at_the_first_step_lightning
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.scenarios.data_too_many_open_files import HEADROOM, ManyTensors
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-too-many-open-files",
    variant="lightning-fixed-file-system-strategy",
    description="fix in Lightning 2.6.6: the snippet's file_system sharing strategy",
    expect="complete",
    role=FIXED,
    key_text=("32 batches kept", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("file-system-sharing-strategy", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_sharing_strategy="file_system")
    run_snippet(code)
    with lightning_on_this_machine(
        accelerator="cpu",
        devices=world_size,
        callbacks=[limit_files_at_the_first_step_lightning(HEADROOM)],
    ):
        trainer = pl.Trainer(strategy="ddp")
    loader = DataLoader(ManyTensors(), batch_size=2, num_workers=1, timeout=30)
    module = batch_module(keep=True)
    steps = fit_lightning(trainer, rank, module=module, dataloader=loader)
    assert len(module.kept) == 32, len(module.kept)
    if rank == 0:
        print(f"{len(module.kept)} batches kept")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
