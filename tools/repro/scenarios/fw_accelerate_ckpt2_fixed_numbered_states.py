"""Fix, in Accelerate: the entry's own snippet (an Accelerator whose ProjectConfiguration numbers
each save_state folder and keeps the last two, then load_state of the one before the newest),
rendered as the wizard renders it, after an earlier run saved with that configuration three
times (checkpoint_0 deleted by Accelerate, checkpoint_1 and checkpoint_2 kept) and its newest
save was interrupted (checkpoint_2's optimizer.bin cut to half its size): load_state restores
checkpoint_1's weights into a freshly built model, which trains on two CPU processes under
torchrun with gradients equal across ranks at every optimizer step.
"""

import torch

from tools.repro.accelerate_support import (
    MeanSquare,
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import network, report_equal_gradients
from tools.repro.fw_ckpt2_support import accelerate_numbered_states, shared_dir
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="accelerate-fixed-numbered-states",
    description="fix in Accelerate 1.15.0: the snippet, numbered states, load the older one",
    expect="complete",
    role=FIXED,
    key_text=(
        "load_state restored checkpoint_1 with checkpoint_2 cut short",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("complete-copy-and-atomic-save", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    saved = accelerate_numbered_states(rank)["checkpoint_1"]
    torch.manual_seed(1)  # a model built afresh, other weights than the saved ones
    model = MeanSquare(network())
    torch.nn.init.normal_(model.net[0].weight)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_every_optimizer_step(model)
    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=model, optimizer=optimizer
        )
    accelerator = names["accelerator"]
    loaded = accelerator.unwrap_model(names["model"]).state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in saved.items()), "weights not restored"
    if rank == 0:
        print("load_state restored checkpoint_1 with checkpoint_2 cut short")
    dataloader = accelerator.prepare(accelerate_names(rank)["dataloader"])
    accelerate_train(accelerator, names["model"], names["optimizer"], dataloader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
