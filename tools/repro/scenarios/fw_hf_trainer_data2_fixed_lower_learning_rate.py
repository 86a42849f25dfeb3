"""Fix, in the Hugging Face Trainer: the entry's own snippet (a lower learning rate, a warm-up over
5% of the steps given as warmup_steps=0.05, gradients clipped at 1.0), rendered as the wizard
renders it, trains the tiny regression on two CPU processes under torchrun with a finite loss at
every logged step and gradients equal across ranks before every optimizer step. (The snippet
named warmup_ratio before: transformers 5.24.0's TrainingArguments has no such argument.)"""

import math

from tools.repro.framework_support import (
    RegressionModel,
    hf_trainer_on_this_machine,
    regression_dataset,
    report_equal_gradients,
    work_in_temporary_directory,
)
from tools.repro.fw_data2_support import train_hf_on
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="loss-nan-or-inf",
    variant="hf-trainer-fixed-lower-learning-rate",
    description="fix in transformers 5.24.0: the snippet's lower lr, warm-up ratio, clipping",
    expect="complete",
    role=FIXED,
    key_text=("finite losses", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("lower-learning-rate", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    assert (args.learning_rate, args.warmup_steps, args.max_grad_norm) == (1e-5, 0.05, 1.0)
    args.logging_steps = 1
    steps, losses = train_hf_on(args, RegressionModel(), regression_dataset(rank))
    assert losses and all(math.isfinite(loss) for loss in losses), losses
    if rank == 0:
        print(f"{len(losses)} finite losses logged")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
