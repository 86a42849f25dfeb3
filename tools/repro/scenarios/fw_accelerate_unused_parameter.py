"""Accelerate without find_unused_parameters and a model with a layer its forward never uses,
two CPU processes under torchrun: the second step finds the first one's reduction unfinished,
in the model's forward.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.framework_support import Unused
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="accelerate-unused-parameter",
    description="Accelerate 1.15.0: DDP without find_unused_parameters, an unused layer",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to have finished reduction in the prior iteration",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank, net=Unused)
    accelerator = Accelerator(cpu=True)
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        loss = model(batch)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
