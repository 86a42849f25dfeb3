"""Accelerate with DistributedDataParallelKwargs(static_graph=True) and 4 accumulation steps,
two CPU processes under torchrun: accelerator.accumulate() enters no_sync() for the forward
and backward of every non-final micro-batch, so the static graph's first backward runs
unsynchronised and the reducer's assertion fires in accelerator.backward.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="accelerate-static-graph-accumulation",
    description="Accelerate 1.15.0: DDP static_graph=True with gradient_accumulation_steps=4",
    expect="fail",
    role=BROKEN,
    key_text=("expect_autograd_hooks_ INTERNAL ASSERT FAILED", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True,
        kwargs_handlers=[DistributedDataParallelKwargs(static_graph=True)],
        gradient_accumulation_steps=4,
    )
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    for batch in dataloader:
        with accelerator.accumulate(model):
            loss = model(batch)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
