"""Fix, in Lightning: the entry's own snippet (a training_step that returns the sum of the two
losses), rendered as the wizard renders it and taken into the user's module, fits with the
script's DDPStrategy(static_graph=True) kept on two CPU processes under torchrun, with
gradients equal across ranks at every optimizer step.
"""

from lightning.pytorch.strategies import DDPStrategy

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import single_backward_fix

SCENARIO = Scenario(
    slug="ddp-static-graph-graph-changed",
    variant="lightning-fixed-static-graph-single-backward",
    description="fix in Lightning 2.6.6: one loss returned, static_graph=True kept",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "lightning"),
    preload=("lightning.pytorch",),
)


main = single_backward_fix(
    SCENARIO, strategy=lambda: DDPStrategy(static_graph=True, process_group_backend="gloo")
)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
