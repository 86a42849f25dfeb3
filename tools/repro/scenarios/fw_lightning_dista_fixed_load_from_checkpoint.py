"""Fix, in Lightning: the entry's own snippet (LitModel.load_from_checkpoint("last.ckpt"), then
torch.save of its bare network), rendered as the wizard renders it, run on rank 0 after the
module trained on two CPU processes under torchrun with gradients equal across ranks at every
optimizer step: the saved keys are the network's own, and a plain network loads them strictly.
"""

import lightning.pytorch as pl
import torch

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_dista_support import Encoded, EncodedModule, work_in_own_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="lightning-fixed-load-from-checkpoint",
    description="fix in Lightning 2.6.6: the snippet, the bare network saved from the checkpoint",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks", "plain network loaded"),
    launchers=("torchrun",),
    snippet=("save-and-load-the-inner-module", "lightning"),
    preload=("lightning.pytorch",),
)


class LitModel(EncodedModule, pl.LightningModule):
    pass


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=LitModel())
    trainer.save_checkpoint("last.ckpt")  # the script's; Lightning writes it on rank 0
    report_equal_gradients(steps, rank)
    if trainer.is_global_zero:
        run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), LitModel=LitModel)
        Encoded().load_state_dict(torch.load("model.pt"))
        print("plain network loaded the saved state_dict")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
