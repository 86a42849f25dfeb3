"""Accelerate and a script that accumulates by hand, every micro-batch's forward inside
accelerator.no_sync(model) and its backward outside, two CPU processes under torchrun, without
static_graph: DDP decides in the forward whether the next backward is all-reduced, so nothing
is; no error, and the ranks' gradients differ at every optimizer step (silent, so the capture
goes to tests/corpus/_silent/).
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_names
from tools.repro.fw_distb_support import report_gradients, train_forward_in_no_sync
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="accelerate-forward-in-no-sync-backward-outside",
    description="Accelerate 1.15.0: forward in accelerator.no_sync(), backward outside; "
    "exits 0, grads differ",
    expect="complete",
    role=BROKEN,
    silent=True,
    key_text=("optimizer steps: gradients differ across ranks",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    accelerator = Accelerator(cpu=True)
    prepared = accelerator.prepare(script["model"], script["optimizer"], script["dataloader"])
    report_gradients(train_forward_in_no_sync(accelerator, *prepared), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
