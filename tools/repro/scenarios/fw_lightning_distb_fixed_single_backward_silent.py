"""The entry's own Lightning snippet (a training_step that returns main_loss_fn(out) +
aux_loss_fn(out), so Lightning runs one backward), rendered as the wizard renders it and taken
into the user's module, fits on two CPU processes under torchrun, with gradients equal across
ranks at every optimizer step. The two backwards it replaces stay synchronised in Lightning
(fw_lightning_distb_second_backward_retain_graph).
"""

import torch

from tools.repro.framework_support import network, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="lightning-fixed-single-backward",
    description="fix in Lightning 2.6.6: the snippet, one loss returned from training_step",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("single-backward", "lightning"),
    preload=("lightning.pytorch",),
)


def main_loss_fn(out):
    return out.pow(2).mean()


def aux_loss_fn(out):
    return out.abs().mean()


def main(rank, world_size):
    import lightning.pytorch as pl

    from tools.repro.framework_support import report_equal_gradients

    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    snippet = run_snippet(code, main_loss_fn=main_loss_fn, aux_loss_fn=aux_loss_fn)

    class LitModel(snippet["LitModel"]):
        def __init__(self):
            super().__init__()
            self.model = network()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, module=LitModel()), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
