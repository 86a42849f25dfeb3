"""Fix, in Lightning: the entry's own snippet (a LitModel that builds its model from the
hidden_size and vocab_size it is given, saved as hyperparameters), rendered as the wizard
renders it and taken into the user's LightningModule: the same arguments on every rank build
the same shapes, and it trains on two CPU processes under torchrun, gradients equal across
ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_dista_support import build_model, sized_module_class
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="lightning-fixed-sizes-from-arguments",
    description="fix in Lightning 2.6.6: the snippet, sizes passed to LitModel as arguments",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-model-on-every-rank", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), build_model=build_model)
    module = sized_module_class(snippet["LitModel"])(hidden_size=8, vocab_size=1)
    assert dict(module.hparams) == {"hidden_size": 8, "vocab_size": 1}
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, module=module), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
