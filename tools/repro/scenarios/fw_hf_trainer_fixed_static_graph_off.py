"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments with
ddp_static_graph=False), rendered as the wizard renders it, trains the same model on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import hf_trainer_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="hf-trainer-fixed-static-graph-off",
    description="fix in the transformers 5.24.0 Trainer: the snippet, ddp_static_graph=False",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("static-graph-off", "hf_trainer"),
    preload=("transformers.trainer",),
)


main = hf_trainer_fix(SCENARIO, {"accumulation_steps": "4"})


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
