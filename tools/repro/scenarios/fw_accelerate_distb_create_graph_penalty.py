"""Accelerate's prepared model (DDP on two CPU processes under torchrun) trained with a gradient
penalty built the naive way (as g2_create_graph_backward does in plain PyTorch):
accelerator.backward(loss, create_graph=True), then a backward of the squared .grad.
accelerator.backward hands create_graph to the backward through DDP, whose reducer logs "Using
DistributedDataParallel with create_graph=True is not well-supported" and then fails it, "a leaf
Variable that requires grad is being used in an in-place operation." (Accelerate 1.15.0).
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_on_this_machine, prepare_tanh_net
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="accelerate-backward-create-graph",
    description="Accelerate 1.15.0: accelerator.backward(loss, create_graph=True), a penalty",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Using DistributedDataParallel with create_graph=True",
        "a leaf Variable that requires grad is being used in an in-place operation",
        "accelerate/accelerator.py",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = prepare_tanh_net(accelerator, rank)
    for batch in dataloader:
        accelerator.backward(model(batch).pow(2).mean(), create_graph=True)
        penalty = sum(p.grad.pow(2).sum() for p in model.parameters())
        accelerator.backward(penalty)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
