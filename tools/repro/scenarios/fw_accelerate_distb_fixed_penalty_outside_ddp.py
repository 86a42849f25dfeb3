"""Fix, in Accelerate: the entry's own snippet (the loop that builds the penalty with
torch.autograd.grad(..., create_graph=True) on the unwrapped model and runs one
accelerator.backward), rendered as the wizard renders it, for the prepared model of
fw_accelerate_distb_create_graph_penalty: no create_graph backward reaches DDP, no warning, and
it trains on two CPU processes under torchrun, gradients equal across ranks at every optimizer
step.
"""

from accelerate import Accelerator

from tools.repro.accelerate_support import accelerate_on_this_machine, prepare_tanh_net
from tools.repro.framework_support import report_equal_gradients
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="accelerate-fixed-penalty-outside-ddp",
    description="fix in Accelerate 1.15.0: the snippet, the penalty from torch.autograd.grad",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("penalty-outside-ddp", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    with accelerate_on_this_machine():
        accelerator = Accelerator()
    model, optimizer, dataloader = prepare_tanh_net(accelerator, rank)
    steps = check_every_optimizer_step(accelerator.unwrap_model(model))
    run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
        accelerator=accelerator,
        model=model,
        optimizer=optimizer,
        dataloader=dataloader,
        loss_fn=lambda out: out.pow(2).mean(),
    )
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
