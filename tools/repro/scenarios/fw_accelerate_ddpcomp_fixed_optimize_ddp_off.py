"""Fix, in Accelerate: the entry's own snippet (torch._dynamo.config.optimize_ddp = False, then
Accelerator(dynamo_backend="inductor")), rendered as the wizard renders it, for the script of
fw_accelerate_ddpcomp_ddp_optimizer_split: DDPOptimizer no longer runs, the model's forward
compiles as one graph holding its three linear layers, and the script's loop trains on two CPU
processes under torchrun, with gradients equal across ranks after every optimizer step (DDP's
own hooks all-reduce them after the backward).
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ddpcomp_support import Compilations, wide_network
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="accelerate-fixed-optimize-ddp-off",
    description="fix in Accelerate 1.15.0: the snippet, optimize_ddp = False, dynamo_backend",
    expect="complete",
    role=FIXED,
    key_text=(
        "no DDPOptimizer split: the 3 linear layers compiled as one graph",
        "optimizer steps, gradients equal",
    ),
    launchers=("torchrun",),
    snippet=("optimize-ddp-off", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank, net=wide_network)
    steps = check_every_optimizer_step(script["model"])
    compilations = Compilations()
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    with compilations.traced():  # the snippet's "inductor", compiled by an eager backend
        prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
        accelerate_train(accelerator, *prepared)
    compilations.report_whole(rank)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
