"""The entry's own Accelerate snippet for loading a checkpoint without a second copy in memory
(the model built under init_empty_weights, on the meta device, then load_checkpoint_and_dispatch
with device_map="auto"), rendered as the wizard renders it, on each of two CPU processes under
torchrun: the weights are the saved ones, and the model, prepared, trains with gradients equal
across ranks at every optimizer step. What it checks is that the snippet works with the pinned
Accelerate; the out-of-memory kill is not provoked.
"""

import tempfile
from pathlib import Path

import torch

from tools.repro.accelerate_support import (
    MeanSquare,
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import network, report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="host-out-of-memory-killed",
    variant="accelerate-fixed-load-checkpoint-and-dispatch",
    description="fix in Accelerate 1.15.0: the snippet, init_empty_weights and dispatch",
    expect="complete",
    role=FIXED,
    key_text=(
        "built on meta, loaded on cpu, weights as saved",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("load-checkpoint-memory-mapped", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    from accelerate import Accelerator

    devices = []

    def build_model():
        model = MeanSquare(network())  # seeded: the same weights on every rank
        devices.append(next(model.parameters()).device.type)
        return model

    # Each rank saves its own copy of the checkpoint (equal: the model is seeded).
    with tempfile.TemporaryDirectory() as folder:
        checkpoint_path = str(Path(folder) / "checkpoint.pt")
        saved = build_model().state_dict()
        torch.save(saved, checkpoint_path)
        devices.clear()
        code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
        model = run_snippet(code, build_model=build_model, checkpoint_path=checkpoint_path)["model"]
    loaded = model.state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in saved.items()), "weights differ"
    if rank == 0:
        where = next(model.parameters()).device.type
        print(f"built on {devices[0]}, loaded on {where}, weights as saved")
    script = accelerate_names(rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_every_optimizer_step(model)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    accelerate_train(accelerator, *accelerator.prepare(model, optimizer, script["dataloader"]))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
