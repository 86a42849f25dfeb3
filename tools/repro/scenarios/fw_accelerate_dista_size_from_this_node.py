"""An Accelerate script that builds its model from the node's own configuration (a hidden size
of 4 on rank 0's node, 5 on the other's): DDP's constructor, inside prepare(), refuses rank 1's
shapes, on two CPU processes under torchrun. Rank 0 only sees its peer go.
"""

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.fw_dista_support import MeanSquareOf, build_model, hidden_size_of_this_node
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="accelerate-size-from-this-node",
    description="Accelerate 1.15.0: the hidden size read per node, 4 on rank 0 and 5 on rank 1",
    expect="fail",
    role=BROKEN,
    key_text=(
        "params[0] in this process with sizes [5, 4] appears not to match sizes of the same "
        "param in process 0.",
        "accelerate/accelerator.py",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    accelerator = Accelerator(cpu=True)
    model = MeanSquareOf(build_model(hidden_size=hidden_size_of_this_node()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerate_train(accelerator, model, optimizer, accelerate_names(rank)["dataloader"])


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
