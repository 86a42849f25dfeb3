"""Fix, in Lightning: the entry's own snippet (a training_step that returns the sum of the two
losses, so Lightning runs one backward), rendered as the wizard renders it and taken into the
user's module, fits on two CPU processes under torchrun with the broken script's
strategy="ddp_find_unused_parameters_true" kept, gradients equal across ranks at every
optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import single_backward_fix

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="lightning-fixed-single-backward",
    description="fix in Lightning 2.6.6: the snippet, one loss returned from training_step",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "lightning"),
    preload=("lightning.pytorch",),
)


main = single_backward_fix(SCENARIO, strategy=lambda: "ddp_find_unused_parameters_true")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
