"""Fix, in Lightning: the entry's own Lightning snippet (the DDP strategy creates the process
group; the module creates none), rendered as the wizard renders it, fits the same module on
two CPU processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fit_fix

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="lightning-fixed-init-once",
    description="fix in Lightning 2.6.6: the entry's snippet, no init_process_group() of its own",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("init-once", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fit_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
