"""Accelerate asked to compile (Accelerator(dynamo_backend="inductor")), run as a user bisecting a
compile problem runs it, with TORCH_LOGS="distributed,ddp_graphs", on two CPU processes under
torchrun: prepare() compiles the model it has wrapped in DDP, Dynamo compiles the model's forward
inside DDP's and hands its graph to DDPOptimizer (the default optimize_ddp=True), which logs
"DDPOptimizer used bucket cap 26214400 and created 2 buckets" and dumps the split,
"---submod_0 graph---" and "---submod_1 graph---", one graph per gradient bucket of the model's
1 MiB of parameters (fw_ddpcomp_support.wide_network). A log, not a failure: the script's loop
completes with gradients equal across ranks. ("inductor" is replaced by an eager backend:
fw_ddpcomp_support.Compilations.)
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import BROKEN, Scenario, check_every_optimizer_step, launch_without_group

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="accelerate-ddp-optimizer-split",
    description="Accelerate 1.15.0: dynamo_backend='inductor' on two processes, TORCH_LOGS",
    expect="complete",
    role=BROKEN,
    key_text=(
        "DDPOptimizer used bucket cap 26214400 and created 2 buckets",
        "[__ddp_graphs] ---submod_1 graph---",
        "DDPOptimizer split the compiled step into 2 graphs",
    ),
    env={"TORCH_LOGS": "distributed,ddp_graphs"},
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank, net=wide_network)
    steps = check_every_optimizer_step(script["model"])
    compilations = Compilations()
    with accelerate_on_this_machine():
        accelerator = Accelerator(dynamo_backend="inductor")
    with compilations.traced():
        prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
        accelerate_train(accelerator, *prepared)
    compilations.report_split(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
