"""Fix, in Accelerate: the entry's own snippet (Accelerator(dynamo_plugin=TorchDynamoPlugin(
backend="inductor", fullgraph=False))), rendered as the wizard renders it: prepare() compiles
the model of fw_accelerate_cdv_fullgraph_ddp_forward without fullgraph, its data-dependent
branch becomes a graph break (the graphs traced with the eager backend:
fw_cdv_support.eager_backend), and the script's loop trains on two CPU processes under
torchrun, with gradients equal across ranks after every optimizer step.
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_cdv_support import GatedNetwork, eager_backend, report_graph_breaks
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="accelerate-fixed-fullgraph-off",
    description="fix in Accelerate 1.15.0: the snippet, TorchDynamoPlugin(fullgraph=False)",
    expect="complete",
    role=FIXED,
    key_text=("graph break: Data-dependent branching", "optimizer steps, gradients equal"),
    launchers=("torchrun",),
    snippet=("allow-graph-breaks", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank, net=GatedNetwork)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    with eager_backend():  # the snippet's "inductor", traced by Dynamo as it is
        prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
    accelerate_train(accelerator, *prepared)
    report_equal_gradients(steps, rank)
    report_graph_breaks(rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
