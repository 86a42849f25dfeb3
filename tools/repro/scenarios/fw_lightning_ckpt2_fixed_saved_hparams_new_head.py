"""Fix, in Lightning: the entry's own Lightning snippet (LitModel.load_from_checkpoint with the
saved hyperparameters, then a new classifier of num_classes outputs), rendered as the wizard
renders it with num_classes = 3, loads the 10-class checkpoint, and the 3-class module trains on
two CPU processes under torchrun with gradients equal across ranks at every optimizer step.
"""

import torch

from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    classifier_module_class,
    fit_checked,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="lightning-fixed-saved-hparams-new-head",
    description="fix in Lightning 2.6.6: the snippet, saved hparams, then a new 3-class head",
    expect="complete",
    role=FIXED,
    key_text=(
        "body loaded, classifier now 3 outputs",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("match-the-config-or-drop-the-resized-layers", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = classifier_module_class(rank)
    saved = LitModel(num_classes=10)
    save_lightning_checkpoint(saved, world_size)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    torch.manual_seed(0)  # the new head starts the same on every rank, as in one script
    model = run_snippet(code, LitModel=LitModel, num_classes=3)["model"]
    assert torch.equal(model.body.weight, saved.body.weight)
    assert model.classifier.out_features == 3
    if rank == 0:
        print("body loaded, classifier now 3 outputs")
    report_equal_gradients(fit_checked(model, world_size), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
