"""The entry's own Lightning snippet (strategy="ddp", accumulate_grad_batches=4, Lightning
placing no_sync() itself), rendered as the wizard renders it, fits on two CPU processes under
torchrun, with gradients equal across ranks at every optimizer step. The hand-written no_sync()
split it replaces does not fail in Lightning (fw_lightning_distb_*forward_in_no_sync).
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="lightning-fixed-align-no-sync",
    description="fix in Lightning 2.6.6: accumulate_grad_batches=4, no hand-written no_sync()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("align-no-sync", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
