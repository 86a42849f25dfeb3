"""A Lightning script written for GPU nodes, `pl.Trainer(accelerator="gpu", devices=2)`, on the
CPU build of torch 2.13.0 (Lightning 2.6.6, two processes under torchrun): the Trainer refuses
to be built, in Lightning's words ("No supported gpu backend found!") rather than torch's
"Torch not compiled with CUDA enabled", before any .cuda() call.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="lightning-accelerator-gpu-on-cpu-build",
    description='Lightning 2.6.6: pl.Trainer(accelerator="gpu", devices=2) on a CPU build',
    expect="fail",
    role=BROKEN,
    key_text=("No supported gpu backend found!", "lightning/pytorch/"),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with lightning_on_this_machine():
        trainer = pl.Trainer(accelerator="gpu", devices=world_size, strategy="ddp")
    fit_lightning(trainer, rank, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
