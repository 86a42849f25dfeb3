"""Fix, in the Hugging Face Trainer: the entry's own snippet (ddp_static_graph=False,
ddp_find_unused_parameters=True), rendered as the wizard renders it, trains the model whose
auxiliary head takes part in the first step only, on two CPU processes under torchrun, with
gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.fw_distc_support import AuxHeadFirst
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="hf-trainer-fixed-static-graph-off-head-first-step-only",
    description="fix in the transformers 5.24.0 Trainer: ddp_static_graph=False, find_unused=True",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "hf_trainer"),
    preload=("transformers.trainer",),
)


# One optimizer step per micro-batch: the head drops out at the second step, not after four.
main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "1"}, net=AuxHeadFirst)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
