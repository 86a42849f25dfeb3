"""Fix, in the Hugging Face Trainer: the entry's own snippet (torch._dynamo.config.optimize_ddp =
False, then TrainingArguments with torch_compile=True), rendered as the wizard renders it, for
the script of fw_hf_trainer_ddpcomp_ddp_optimizer_split: DDPOptimizer no longer runs, the model's
forward compiles as one graph holding its three linear layers, and the Trainer trains on two CPU
processes under torchrun, with gradients equal across ranks before every optimizer step (DDP's
own hooks all-reduce them after the backward).
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    arguments_the_script_gives,
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="hf-trainer-fixed-optimize-ddp-off",
    description="fix in transformers 5.24.0: the snippet, optimize_ddp = False, torch_compile=True",
    expect="complete",
    role=FIXED,
    key_text=(
        "no DDPOptimizer split: the 3 linear layers compiled as one graph",
        "optimizer steps, gradients equal",
    ),
    launchers=("torchrun",),
    snippet=("optimize-ddp-off", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    compilations = Compilations()
    # The script's own find_unused_parameters=False (fw_hf_trainer_ddpcomp_ddp_optimizer_split).
    script = arguments_the_script_gives(TrainingArguments, ddp_find_unused_parameters=False)
    with hf_trainer_on_this_machine(), script:
        args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    with compilations.traced():  # the Trainer's "inductor", compiled by an eager backend
        steps = train_hf(args, rank, net=wide_network)
    compilations.report_whole(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
