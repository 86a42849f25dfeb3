"""Fix, in Lightning: the entry's own snippet (sync_batchnorm=torch.cuda.is_available()),
rendered as the wizard renders it: on a CPU the BatchNorm layer stays plain, and the module
trains on two CPU processes under torchrun, gradients equal across ranks at every optimizer
step.
"""

from tools.repro.fw_dista_support import batch_normed
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="syncbn-misuse",
    variant="lightning-fixed-syncbn-gpu-only",
    description="fix in Lightning 2.6.6: the snippet, sync_batchnorm only where CUDA is",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("syncbn-gpu-only", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, net=batch_normed)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
