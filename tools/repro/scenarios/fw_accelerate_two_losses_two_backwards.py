"""Accelerate and a script that backwards the losses of its two heads separately
(accelerator.backward twice, retain_graph for the first), two CPU processes under torchrun: the
second backward reports the shared trunk's gradients again, and DDP refuses to mark them ready
twice.
"""

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.framework_support import TwoHeads, loss_fn_a, loss_fn_b
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-two-losses-two-backwards",
    description="Accelerate 1.15.0: accelerator.backward of two losses of one forward",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to mark a variable ready only once", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    model = TwoHeads()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    accelerator = Accelerator(cpu=True)
    model, optimizer, dataloader = accelerator.prepare(
        model, optimizer, accelerate_names(rank)["dataloader"]
    )
    for batch in dataloader:
        out_a, out_b = model(batch)
        accelerator.backward(loss_fn_a(out_a), retain_graph=True)
        accelerator.backward(loss_fn_b(out_b))
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
