"""Accelerate with DistributedDataParallelKwargs(gradient_as_bucket_view=True) and a loop that
clears gradients with an old-style zero_grad, detaching each in place: at the second step the
gradients are views of DDP's buckets, and autograd refuses to detach them, on two CPU
processes under torchrun.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.fw_dista_support import old_style_zero_grad
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-gradient-as-bucket-view-detach",
    variant="accelerate-detach-bucket-view",
    description="Accelerate 1.15.0: gradient_as_bucket_view=True, grad.detach_() in the loop",
    expect="fail",
    role=BROKEN,
    key_text=("Can't detach views in-place. Use detach() instead.",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(gradient_as_bucket_view=True)]
    )
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        accelerator.backward(model(batch))
        optimizer.step()
        old_style_zero_grad(model.parameters())


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
