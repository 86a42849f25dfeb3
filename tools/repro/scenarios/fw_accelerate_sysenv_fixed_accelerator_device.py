"""Fix, in Accelerate: the entry's own snippet (Accelerator() picks the device, prepare() places
the model, optimizer and data, `device = accelerator.device` instead of "cuda"), rendered as the
wizard renders it, trains on the CPU build of torch 2.13.0 on two processes under torchrun,
each batch moved to the snippet's `device`, with gradients equal across ranks at every
optimizer step. The script's cpu=True (accelerate_on_this_machine) is what puts the two CPU
processes in one group; the device is the snippet's choice.
"""

from tools.repro.accelerate_support import accelerate_names, accelerate_on_this_machine
from tools.repro.framework_support import report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="accelerate-fixed-accelerator-device",
    description="fix in Accelerate 1.15.0: the snippet, accelerator.device instead of cuda",
    expect="complete",
    role=FIXED,
    key_text=("device: cpu", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("device-from-availability", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), **script)
    accelerator, device = names["accelerator"], names["device"]
    if rank == 0:
        print("device:", device)
    for batch in names["dataloader"]:
        loss = names["model"](batch.to(device))
        accelerator.backward(loss)
        names["optimizer"].step()
        names["optimizer"].zero_grad()
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
