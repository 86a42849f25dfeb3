"""Fix, in Lightning: the entry's own snippet (pl.Trainer(strategy="ddp", accelerator="auto",
devices="auto"), no backend named), rendered as the wizard renders it: Lightning picks the CPU
and gloo, and the module trains on two CPU processes under torchrun, gradients equal across
ranks at every optimizer step.
"""

from tools.repro.fw_dista_support import lightning_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="nccl-no-gpu",
    variant="lightning-fixed-backend-for-device",
    description="fix in Lightning 2.6.6: the snippet, accelerator and backend picked by Lightning",
    expect="complete",
    role=FIXED,
    key_text=("distributed_backend=gloo", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("backend-for-device", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_trainer_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
