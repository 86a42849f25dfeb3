"""Fix, in Lightning: the entry's own snippet (strategy="ddp" and one accumulate_grad_batches for
every rank), rendered as the wizard renders it, fits on two CPU processes under torchrun, with
gradients equal across ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-no-sync-misuse",
    variant="lightning-fixed-same-accumulation-every-rank",
    description="fix in Lightning 2.6.6: the snippet, accumulate_grad_batches=4 on every rank",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-window-every-rank", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
