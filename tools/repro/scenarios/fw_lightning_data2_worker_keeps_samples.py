"""Lightning's DDP strategy fitting on a DataLoader whose worker caches every sample it reads
(mem_dataloader_workers_keep_samples' CachingImages), each rank and its worker in a memory
cgroup that lets them charge 256 MiB more than the rank held when it joined, two CPU processes
under torchrun: the cache outgrows the limit within the epoch, the kernel's out-of-memory killer
ends the worker with SIGKILL, and the fit loop reports the worker killed by signal."""

import lightning.pytorch as pl
from torch.utils.data import DataLoader

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import batch_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.mem_support import join_memory_cgroup
from tools.repro.scenarios.mem_dataloader_workers_keep_samples import LIMIT, CachingImages

SCENARIO = Scenario(
    slug="dataloader-worker-killed",
    variant="lightning-dataloader-workers-keep-samples",
    description="Lightning 2.6.6: the worker caches every sample under a 256 MiB cgroup limit",
    expect="fail",
    role=BROKEN,
    # The loop reports the kill as "is killed by signal: Killed" (its SIGCHLD handler) or, when
    # its read of the worker's queue fails first, "exited unexpectedly": the test takes either.
    key_text=("DataLoader worker (pid", "lightning/pytorch/"),
    launchers=("torchrun",),
    fresh_processes=True,
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    dataset = CachingImages()
    join_memory_cgroup(LIMIT)
    loader = DataLoader(dataset, batch_size=16, num_workers=1)
    fit_lightning(trainer, rank, check=False, module=batch_module(), dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
