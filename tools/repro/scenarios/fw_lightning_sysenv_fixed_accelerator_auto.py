"""Fix, in Lightning: the entry's own snippet, `pl.Trainer(accelerator="auto", devices="auto")`,
rendered as the wizard renders it, finds the CPU on the CPU build of torch 2.13.0 and trains on
two processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="lightning-fixed-accelerator-auto",
    description='fix in Lightning 2.6.6: the snippet, accelerator="auto", devices="auto"',
    expect="complete",
    role=FIXED,
    key_text=("accelerator: CPUAccelerator", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("device-from-availability", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    # "auto" finds one device on a CPU: the machine the snippet is for has one per process.
    with lightning_on_this_machine(auto_devices=world_size):
        trainer = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["trainer"]
    if rank == 0:
        print("accelerator:", type(trainer.accelerator).__name__)
    report_equal_gradients(fit_lightning(trainer, rank), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
