"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_static_graph=True,
ddp_find_unused_parameters=False), rendered as the wizard renders it, trains the model on two
CPU processes under torchrun with static_graph on from the start, with gradients equal across
ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="hf-trainer-fixed-static-graph-in-constructor",
    description="fix in the transformers 5.24.0 Trainer: ddp_static_graph=True, find_unused=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-in-constructor", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
