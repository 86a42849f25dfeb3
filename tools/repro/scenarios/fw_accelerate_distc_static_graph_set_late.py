"""Accelerate and a loop that switches static_graph on once training is under way
(`model._set_static_graph()` on the prepared model after the first step), two CPU processes
under torchrun: the reducer has recorded the first iteration and refuses the switch.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="accelerate-static-graph-set-late",
    description="Accelerate 1.15.0: _set_static_graph() on the prepared model after step 1",
    expect="fail",
    role=BROKEN,
    key_text=(
        "set_static_graph() should be called before training loop starts and after "
        "DistributedDataParallel is constructed.",
    ),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for step, batch in enumerate(dataloader):
        accelerator.backward(model(batch))
        optimizer.step()
        optimizer.zero_grad()
        if step == 0:
            model._set_static_graph()  # switched on once the warm-up step is done


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
