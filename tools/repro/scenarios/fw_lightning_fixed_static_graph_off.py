"""Fix, in Lightning: the entry's own Lightning snippet (DDPStrategy(static_graph=False) with
accumulate_grad_batches=4), rendered as the wizard renders it, trains the same module on two
CPU processes, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import lightning_fix

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="lightning-fixed-static-graph-off",
    description="fix in Lightning 2.6.6: the entry's snippet, DDPStrategy(static_graph=False)",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "lightning"),
    preload=("lightning.pytorch",),
)


main = lightning_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
