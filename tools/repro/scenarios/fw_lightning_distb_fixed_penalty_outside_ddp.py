"""Fix, in Lightning: the entry's own snippet (a training_step that builds the penalty with
torch.autograd.grad(..., create_graph=True) and returns one loss), rendered as the wizard
renders it and taken into the user's module of fw_lightning_distb_create_graph_penalty (its
network, automatic optimization): no create_graph backward reaches DDP, no warning, and the fit
trains on two CPU processes under torchrun, gradients equal across ranks at every optimizer
step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import TanhNetModule, fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="lightning-fixed-penalty-outside-ddp",
    description="fix in Lightning 2.6.6: the snippet, the penalty from torch.autograd.grad",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("penalty-outside-ddp", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    snippet = run_snippet(
        fix_snippet(SCENARIO.slug, *SCENARIO.snippet), loss_fn=lambda out: out.pow(2).mean()
    )

    class LitModel(TanhNetModule, snippet["LitModel"]):
        pass

    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, module=LitModel()), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
