"""Fix, in Lightning: the entry's own Lightning snippet (the Trainer and fit inside main(), called
under ``if __name__ == "__main__":``), rendered as the wizard renders it and run as ``__main__``
after the same model and spawn-started LightningDataModule, on two CPU processes under torchrun:
the worker's import of the script starts nothing, and the epoch trains with gradients equal
across ranks at every optimizer step."""

from tools.repro.data_support import run_as_main
from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import gradient_check, lightning_on_this_machine
from tools.repro.snippets import fix_snippet

SCENARIO = Scenario(
    slug="multiprocessing-spawn-main-guard",
    variant="lightning-fixed-main-guard",
    description="fix in Lightning 2.6.6: the snippet's main() under the main guard, spawn worker",
    expect="complete",
    role=FIXED,
    key_text=("4 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("add-main-guard", "lightning"),
    preload=("lightning.pytorch",),
)

HEADER = """
from tools.repro.fw_data2_support import batch_module, spawn_squares_datamodule

model = batch_module()
datamodule = spawn_squares_datamodule()
"""


def main(rank, world_size):
    work_in_temporary_directory()
    steps = []
    with lightning_on_this_machine(
        accelerator="cpu", devices=world_size, callbacks=[gradient_check(steps)]
    ):
        run_as_main(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), HEADER)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
