"""Fix, in Accelerate: the entry's own snippet (DistributedDataParallelKwargs(
find_unused_parameters=False)), rendered as the wizard renders it, trains the GPT-2 still
checkpointed reentrantly on two CPU processes under torchrun, with gradients equal across ranks
at every optimizer step.
"""

from tools.repro.accelerate_support import accelerate_prepare_fix
from tools.repro.framework_support import reentrant_gpt2
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-fixed-find-unused-parameters-off",
    description="fix in Accelerate 1.15.0: find_unused_parameters=False, reentrant checkpointing",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-unused-parameters-off", "accelerate"),
    preload=("accelerate", "transformers"),
)


main = accelerate_prepare_fix(SCENARIO, language_model=reentrant_gpt2)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
