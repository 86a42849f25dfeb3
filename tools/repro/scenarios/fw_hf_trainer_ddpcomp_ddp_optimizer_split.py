"""The Hugging Face Trainer with TrainingArguments(torch_compile=True), run as a user bisecting a
compile problem runs it, with TORCH_LOGS="distributed,ddp_graphs", on two CPU processes under
torchrun: the Trainer has Accelerate compile the DDP-wrapped model, Dynamo compiles the model's
forward inside DDP's and hands its graph to DDPOptimizer (the default optimize_ddp=True), which
logs "DDPOptimizer used bucket cap 26214400 and created 2 buckets" and dumps the split,
"---submod_0 graph---" and "---submod_1 graph---", one graph per gradient bucket of the model's
1 MiB of parameters (fw_ddpcomp_support.wide_network). A log, not a failure: training completes
with gradients equal across ranks. (The Trainer's "inductor" is replaced by an eager backend:
fw_ddpcomp_support.Compilations.) The script turns off the Trainer's default
find_unused_parameters=True, as the warning DDP prints for it advises: that warning
(ddp-find-unused-parameters-perf-warning) would otherwise share the paste with DDPOptimizer's logs.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="hf-trainer-ddp-optimizer-split",
    description="transformers 5.24.0: torch_compile=True on two processes, TORCH_LOGS ddp_graphs",
    expect="complete",
    role=BROKEN,
    key_text=(
        "DDPOptimizer used bucket cap 26214400 and created 2 buckets",
        "[__ddp_graphs] ---submod_1 graph---",
        "DDPOptimizer split the compiled step into 2 graphs",
    ),
    env={"TORCH_LOGS": "distributed,ddp_graphs"},
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    compilations = Compilations()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(
            output_dir="out", torch_compile=True, ddp_find_unused_parameters=False
        )
    with compilations.traced():
        steps = train_hf(args, rank, net=wide_network)
    compilations.report_split(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
