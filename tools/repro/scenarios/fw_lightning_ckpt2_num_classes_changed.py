"""A LightningModule fitted with num_classes=10 (saved in its hyperparameters), loaded with
LitModel.load_from_checkpoint("last.ckpt", num_classes=3): the module is built with the new
number and Lightning 2.6.6 loads the saved 10-class head into it strictly, "size mismatch for
classifier.weight", on two CPU processes under torchrun.
"""

from tools.repro.fw_ckpt2_support import (
    classifier_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="state-dict-size-mismatch",
    variant="lightning-num-classes-changed",
    description="Lightning 2.6.6: load_from_checkpoint(..., num_classes=3) of a 10-class module",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Error(s) in loading state_dict for LitModel:",
        "size mismatch for classifier.weight: copying a param with shape torch.Size([10, 16]) "
        "from checkpoint, the shape in current model is torch.Size([3, 16]).",
        "lightning/pytorch/core/saving.py",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = classifier_module_class(rank)
    save_lightning_checkpoint(LitModel(num_classes=10), world_size)
    LitModel.load_from_checkpoint("last.ckpt", num_classes=3)
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
