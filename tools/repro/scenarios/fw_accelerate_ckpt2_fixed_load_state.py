"""Fix, in Accelerate: the entry's own Accelerate snippet (prepare, then accelerator.load_state of
the folder save_state wrote), rendered as the wizard renders it, restores the saved weights into
a freshly built model, which trains on two CPU processes under torchrun with gradients equal
across ranks at every optimizer step.
"""

import torch

from tools.repro.accelerate_support import (
    MeanSquare,
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import accelerate_saved_state, shared_dir
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-missing-unexpected-keys",
    variant="accelerate-fixed-load-state",
    description="fix in Accelerate 1.15.0: the snippet, prepare then load_state",
    expect="complete",
    role=FIXED,
    key_text=(
        "load_state restored the saved weights",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("load-the-model-entry-with-matching-keys", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    saved = accelerate_saved_state(rank)
    torch.manual_seed(1)  # a model built afresh, other weights than the saved ones
    model = MeanSquare(
        torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    )
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
        print("load_state restored the saved weights")
    dataloader = accelerator.prepare(accelerate_names(rank)["dataloader"])
    accelerate_train(accelerator, names["model"], names["optimizer"], dataloader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
