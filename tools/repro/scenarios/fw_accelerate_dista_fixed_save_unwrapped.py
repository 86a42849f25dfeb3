"""Fix, in Accelerate: the entry's own snippet (prepare(), then
accelerator.save(accelerator.unwrap_model(model).state_dict(), "model.pt")), rendered as the
wizard renders it, then the user's loop: the model trains on two CPU processes under torchrun,
gradients equal across ranks at every optimizer step, and a plain model loads the saved keys
strictly.
"""

import torch

from tools.repro.accelerate_support import (
    MeanSquare,
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import network, report_equal_gradients
from tools.repro.fw_dista_support import work_in_own_directory
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="accelerate-fixed-save-unwrapped",
    description="fix in Accelerate 1.15.0: the snippet, the unwrapped model's state_dict saved",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks", "plain model loaded"),
    launchers=("torchrun",),
    snippet=("save-and-load-the-inner-module", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        names = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            model=script["model"],
            optimizer=script["optimizer"],
        )
    accelerator = names["accelerator"]
    accelerate_train(accelerator, names["model"], names["optimizer"], script["dataloader"])
    report_equal_gradients(steps, rank)
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        MeanSquare(network()).load_state_dict(torch.load("model.pt"))
        print("plain model loaded the saved state_dict")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
