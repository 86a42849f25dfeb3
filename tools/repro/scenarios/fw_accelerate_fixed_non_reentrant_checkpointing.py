"""Fix, in Accelerate: the entry's own snippet (the GPT-2's checkpointing switched to
use_reentrant=False before prepare()), rendered as the wizard renders it, trains on two CPU
processes under torchrun with the script's find_unused_parameters=True kept, gradients equal
across ranks at every optimizer step.
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import reentrant_gpt2, report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-fixed-non-reentrant-checkpointing",
    description="fix in Accelerate 1.15.0: the snippet, use_reentrant=False before prepare()",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("non-reentrant-checkpointing", "accelerate"),
    preload=("accelerate", "transformers"),
)


def main(rank, world_size):
    from accelerate import Accelerator
    from accelerate.utils import DistributedDataParallelKwargs

    script = accelerate_names(rank, language_model=reentrant_gpt2)
    steps = check_every_optimizer_step(script["model"])
    # The broken script's find_unused_parameters stays: the fix is the checkpointing alone.
    with accelerate_on_this_machine():
        accelerator = Accelerator(
            kwargs_handlers=[DistributedDataParallelKwargs(find_unused_parameters=True)]
        )
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    names = run_snippet(code, accelerator=accelerator, **script)
    accelerate_train(accelerator, names["model"], names["optimizer"], names["dataloader"])
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
