"""Accelerate told to register an fp16 compression hook (DistributedDataParallelKwargs(
comm_hook=FP16)), and a script that registers its own hook on the prepared model as well: the
reducer refuses the second one, before any step, on two CPU processes under torchrun.
"""

from accelerate import Accelerator
from accelerate.utils import DDPCommunicationHookType, DistributedDataParallelKwargs
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-comm-hook-twice",
    variant="accelerate-comm-hook-twice",
    description="Accelerate 1.15.0: comm_hook=FP16 in the kwargs and register_comm_hook after",
    expect="fail",
    role=BROKEN,
    key_text=("register_comm_hook or register_builtin_comm_hook can only be called once.",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    names = accelerate_names(rank)
    accelerator = Accelerator(
        cpu=True,
        kwargs_handlers=[DistributedDataParallelKwargs(comm_hook=DDPCommunicationHookType.FP16)],
    )
    model, optimizer, dataloader = accelerator.prepare(
        names["model"], names["optimizer"], names["dataloader"]
    )
    model.register_comm_hook(None, default_hooks.fp16_compress_hook)  # the script's own
    accelerate_train(accelerator, model, optimizer, dataloader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
