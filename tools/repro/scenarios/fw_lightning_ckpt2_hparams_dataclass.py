"""A LightningModule that saves a dataclass among its hyperparameters (save_hyperparameters with
an HParams object), loaded back with LitModel.load_from_checkpoint on torch 2.13.0: Lightning
2.6.6 passes weights_only=None to torch.load, which then defaults to True and refuses the class
("Unsupported global: GLOBAL tools.repro.ckpt_support.HParams"), on two CPU processes under
torchrun.
"""

from tools.repro.ckpt_support import HParams
from tools.repro.fw_ckpt2_support import lit_module_class, save_lightning_checkpoint, shared_dir
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="torch-load-weights-only",
    variant="lightning-hparams-dataclass",
    description="Lightning 2.6.6: load_from_checkpoint of a checkpoint whose hparams hold a class",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Weights only load failed.",
        "Unsupported global: GLOBAL tools.repro.ckpt_support.HParams",
        "lightning/pytorch/core/saving.py",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank, config=HParams())
    save_lightning_checkpoint(LitModel(), world_size)
    LitModel.load_from_checkpoint("last.ckpt")
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
