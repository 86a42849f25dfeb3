"""Fix, in Lightning: the entry's own Lightning snippet (one worker, prefetch_factor=1), rendered
as the wizard renders it for one worker, fits the same 4 MiB batches in the same 16 MiB tmpfs over
/dev/shm on two CPU processes under torchrun, through the epoch, with gradients equal across
ranks at every optimizer step."""

import lightning.pytorch as pl

from tools.repro.data_support import private_shm
from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import RankFrames, batch_module
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.scenarios.data_shm_small_tmpfs import SHM_SIZE
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-shared-memory",
    variant="lightning-fixed-fewer-batches-in-flight",
    description="fix in Lightning 2.6.6: the snippet's one worker, prefetch_factor=1, small shm",
    expect="complete",
    role=FIXED,
    key_text=("16 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("fewer-batches-in-flight", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    private_shm(SHM_SIZE)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    snippet = run_snippet(code, dataset=RankFrames(rank), batch_size=4)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=batch_module(), dataloader=snippet["train_loader"])
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
