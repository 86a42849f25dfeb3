"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
comm_hook=FP16), no register_comm_hook of the script's), rendered as the wizard renders it,
then the user's loop: prepare() registers the one hook and the model trains on two CPU
processes under torchrun, gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-comm-hook-twice",
    variant="accelerate-fixed-one-comm-hook",
    description="fix in Accelerate 1.15.0: the snippet, comm_hook=FP16 registered by prepare()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("one-comm-hook", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_prepare_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
