"""Accelerate with DistributedDataParallelKwargs(find_unused_parameters=True) and a GPT-2
(built from a tiny config) checkpointed reentrantly, two CPU processes under torchrun: the
forward's graph leaves the checkpointed blocks out, DDP marks their parameters ready as unused,
and the inner backward marks them again, in accelerator.backward.
"""

from accelerate import Accelerator
from accelerate.utils import DistributedDataParallelKwargs

from tools.repro.accelerate_support import accelerate_names, accelerate_train
from tools.repro.framework_support import reentrant_gpt2
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-mark-variable-ready-twice",
    variant="accelerate-reentrant-checkpoint-find-unused",
    description="Accelerate 1.15.0: use_reentrant=True checkpointing, find_unused_parameters=True",
    expect="fail",
    role=BROKEN,
    key_text=("Expected to mark a variable ready only once", "accelerate/accelerator.py"),
    launchers=("torchrun",),
    preload=("accelerate", "transformers"),
)


def main(rank, world_size):
    names = accelerate_names(rank, language_model=reentrant_gpt2)
    accelerator = Accelerator(
        cpu=True, kwargs_handlers=[DistributedDataParallelKwargs(find_unused_parameters=True)]
    )
    accelerate_train(
        accelerator,
        *accelerator.prepare(names["model"], names["optimizer"], names["dataloader"]),
    )


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
