"""Fix, in Accelerate: the entry's own snippet (Accelerator() first, which creates the process
group, then prepare()), rendered as the wizard renders it, then the script's loop on two CPU
processes under torchrun, with gradients equal across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_snippet_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dist-default-pg-not-initialized",
    variant="accelerate-fixed-accelerator-first",
    description="fix in Accelerate 1.15.0: the entry's snippet, Accelerator() before anything else",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("init-first", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_snippet_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
