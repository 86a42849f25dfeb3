"""Fix, in Lightning: the entry's own Lightning snippet (the DataLoader with the workers named),
rendered as the wizard renders it for one worker, over a dataset that reads each image when it
is asked for and keeps none (no per-worker cache), fits under the same 256 MiB memory cgroup on
two CPU processes under torchrun, through the epoch, with gradients equal across ranks at every
optimizer step."""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import StreamedImages, batch_module
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.mem_support import join_memory_cgroup
from tools.repro.scenarios.mem_dataloader_workers_keep_samples import LIMIT
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dataloader-worker-killed",
    variant="lightning-fixed-no-per-worker-copies",
    description="fix in Lightning 2.6.6: the snippet's one worker, no per-worker cache, cgroup",
    expect="complete",
    role=FIXED,
    key_text=("4 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("fewer-workers-no-per-worker-copies", "lightning"),
    fresh_processes=True,
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    join_memory_cgroup(LIMIT)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    snippet = run_snippet(code, dataset=StreamedImages(rank), batch_size=16)
    steps = fit_lightning(trainer, rank, module=batch_module(), dataloader=snippet["train_loader"])
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
