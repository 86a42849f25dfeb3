"""Fix, in Lightning: the entry's own snippet (a LightningModule that measures its head's
in_features on one batch of the real data in __init__), rendered as the wizard renders it, for
the feature extractor and 12x12 images of fw_lightning_matmul_head_sized_for_other_input: the
head gets 144 in_features and Lightning's DDP strategy fits it on two CPU processes under
torchrun, with gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_matmul_support import NUM_CLASSES, features, image_batches
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="matmul-shape-mismatch",
    variant="lightning-fixed-size-from-input",
    description="fix in Lightning 2.6.6: the snippet, in_features measured in __init__",
    expect="complete",
    role=FIXED,
    key_text=("head in_features 144", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("size-layer-from-real-input", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    loader = image_batches(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    model = run_snippet(code, features=features(), train_loader=loader, num_classes=NUM_CLASSES)[
        "model"
    ]
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(trainer, rank, module=model, dataloader=loader)
    report_equal_gradients(steps, rank)
    if rank == 0:
        print(f"head in_features {model.head.in_features}")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
