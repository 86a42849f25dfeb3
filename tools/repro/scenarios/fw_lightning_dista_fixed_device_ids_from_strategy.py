"""Fix, in Lightning: the entry's own snippet (pl.Trainer(accelerator="auto", devices="auto",
strategy="ddp"), no DDP of the module's own), rendered as the wizard renders it: the strategy
wraps the module without device_ids on a CPU, and it trains on two CPU processes under
torchrun, gradients equal across ranks at every optimizer step.
"""

from tools.repro.fw_dista_support import lightning_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-device-ids-misuse",
    variant="lightning-fixed-device-ids-from-strategy",
    description="fix in Lightning 2.6.6: the snippet, the strategy picks device_ids itself",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("device-ids-for-one-gpu-only", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_trainer_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
