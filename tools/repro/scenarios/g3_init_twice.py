"""DIST-002: init_process_group() called a second time in the same process.

``launch()`` has already initialised the default gloo group (as a launcher
helper or a framework such as Accelerate or Lightning would); the training
code then calls ``dist.init_process_group()`` again and torch refuses with
"trying to initialize the default process group twice!".
"""

from datetime import timedelta

import torch.distributed as dist

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="dist-init-twice",
    variant="init-process-group-twice",
    description="broken: a second init_process_group() after the group is initialised",
    expect="fail",
    role=BROKEN,
    key_text=("trying to initialize the default process group twice!",),
)


def main(rank, world_size):
    # The training code's own setup, unaware the group already exists.
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=30))
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
