"""Accelerate asked to compile with fullgraph=True (a TorchDynamoPlugin with backend="inductor",
fullgraph=True) a model whose forward branches in Python on a tensor's value (if x.sum() > 0,
as comp_unsupported_fullgraph_data_branch), on two CPU processes under torchrun. prepare()
compiles the model it has wrapped in DDP, so Dynamo traces DDP's own forward first, and the
first forward raises torch._dynamo.exc.Unsupported on every rank at DDP's
self.logger.set_runtime_stats_and_log() (a method Dynamo cannot trace), before the model's
branch and before any backend runs: under several processes fullgraph=True fails whatever the
model.
"""

from accelerate import Accelerator
from accelerate.utils import TorchDynamoPlugin

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.fw_cdv_support import GatedNetwork
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="accelerate-fullgraph-ddp-forward",
    description="Accelerate 1.15.0: TorchDynamoPlugin(fullgraph=True) on two processes",
    expect="fail",
    role=BROKEN,
    key_text=(
        "torch._dynamo.exc.Unsupported: Unsupported method call",
        "self.logger.set_runtime_stats_and_log()",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank, net=GatedNetwork)
    with accelerate_on_this_machine():
        accelerator = Accelerator(
            dynamo_plugin=TorchDynamoPlugin(backend="inductor", fullgraph=True)
        )
    accelerate_train(
        accelerator,
        *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
