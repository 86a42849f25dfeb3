"""Fix, in Lightning: the entry's own snippet (a LitModel whose configure_model freezes
`self.model.encoder`, run on every rank before the strategy wraps it), rendered as the wizard
renders it and taken into the user's LightningModule, trains on two CPU processes under
torchrun, gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_dista_support import EncodedModule
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="lightning-fixed-freeze-in-configure-model",
    description="fix in Lightning 2.6.6: the snippet, the encoder frozen in configure_model",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-trainable-params", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))

    class LitModel(EncodedModule, snippet["LitModel"]):
        pass

    module = LitModel()
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=module)
    assert not any(p.requires_grad for p in module.model.encoder.parameters())
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
