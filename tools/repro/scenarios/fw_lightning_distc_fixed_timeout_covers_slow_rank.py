"""Fix, in Lightning: the entry's own snippet (DDPStrategy(process_group_backend="gloo",
timeout=60 minutes)), rendered as the wizard renders it, fits the module on two CPU processes
under torchrun while rank 0 does 5 s of work of its own after the first batch (longer than the
broken run's timeout), with gradients equal across ranks at every optimizer step.
"""

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_distc_support import late_rank_callback
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="lightning-fixed-timeout-covers-slow-rank",
    description="fix in Lightning 2.6.6: DDPStrategy(timeout=60 min), rank 0 busy 5 s",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-collectives-on-every-rank", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with lightning_on_this_machine(
        accelerator="cpu", devices=world_size, callbacks=[late_rank_callback(rank)]
    ):
        trainer = run_snippet(code)["trainer"]
    report_equal_gradients(fit_lightning(trainer, rank), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
