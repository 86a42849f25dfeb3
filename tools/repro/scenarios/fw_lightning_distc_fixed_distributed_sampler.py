"""Fix, in Lightning: the entry's own snippet (strategy="ddp", use_distributed_sampler=True),
rendered as the wizard renders it, fits the module on the whole dataset (20 rows, the same on
every rank) on two CPU processes under torchrun: Lightning's DistributedSampler gives every
rank the same number of batches, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_distc_support import whole_dataset_loader
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-uneven-inputs-hang",
    variant="lightning-fixed-distributed-sampler",
    description="fix in Lightning 2.6.6: use_distributed_sampler=True over the whole dataset",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("join-uneven-inputs", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = run_snippet(code)["trainer"]
    steps = fit_lightning(trainer, rank, dataloader=whole_dataset_loader())
    assert len(steps) == 3, steps  # 20 rows in batches of 4, split in two: 3 batches a rank
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
