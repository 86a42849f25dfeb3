"""Fix, in Accelerate: the entry's own Accelerate snippet (the saved model.safetensors loaded into
the unwrapped model without the entries whose shape differs), rendered as the wizard renders it,
after prepare of the model whose last layer was resized (fw_accelerate_ckpt2_head_resized):
every other weight is the saved one, the new layer keeps its fresh initialisation, and it trains
on two CPU processes under torchrun with gradients equal across ranks at every optimizer step.
"""

import torch
from accelerate import Accelerator

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import accelerate_saved_state, shared_dir, three_output_network
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="accelerate-fixed-drop-resized-layers",
    description="fix in Accelerate 1.15.0: the snippet, the saved weights but the resized layer",
    expect="complete",
    role=FIXED,
    key_text=(
        "not loaded (shape differs): ['net.2.bias', 'net.2.weight']",
        "the rest restored, the resized layer kept fresh",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("match-the-config-or-drop-the-resized-layers", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    shared_dir()
    saved = accelerate_saved_state(rank)
    script = accelerate_names(rank, net=three_output_network)
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = accelerator.prepare(
        script["model"], script["optimizer"], script["dataloader"]
    )
    unwrapped = accelerator.unwrap_model(model)
    fresh = {k: v.clone() for k, v in unwrapped.state_dict().items() if k.startswith("net.2.")}
    run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), accelerator=accelerator, model=model)
    loaded = unwrapped.state_dict()
    assert all(torch.equal(loaded[k], v) for k, v in fresh.items()), "the resized layer loaded"
    assert all(torch.equal(loaded[k], v) for k, v in saved.items() if k not in fresh), (
        "not restored"
    )
    if rank == 0:
        print("the rest restored, the resized layer kept fresh")
    steps = check_every_optimizer_step(unwrapped)
    accelerate_train(accelerator, model, optimizer, dataloader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
