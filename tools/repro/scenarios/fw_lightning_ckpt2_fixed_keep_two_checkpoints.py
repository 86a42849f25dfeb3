"""Fix, in Lightning: the entry's own Lightning snippet (a Trainer whose ModelCheckpoint keeps
the two best checkpoints by val_loss and last.ckpt), rendered as the wizard renders it, fits
three epochs; last.ckpt is then cut to half its size, as an interrupted save leaves it, and the
fit resumes from the best checkpoint kept beside it, on two CPU processes under torchrun, with
gradients equal across ranks at every optimizer step of both fits.
"""

import os
import zipfile

import torch.distributed as dist

from tools.repro.ckpt_support import truncate
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import lightning_machine, lit_module_class, shared_dir
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import gradient_check
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-truncated-zip",
    variant="lightning-fixed-keep-two-checkpoints",
    description="fix in Lightning 2.6.6: the snippet, ModelCheckpoint(save_top_k=2, save_last)",
    expect="complete",
    role=FIXED,
    key_text=(
        "kept 2 checkpoints and last.ckpt; resumed from",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("complete-copy-and-atomic-save", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    steps = []
    with lightning_machine(world_size, max_epochs=3):
        trainer = run_snippet(code)["trainer"]
    trainer.callbacks.append(gradient_check(steps))
    trainer.fit(LitModel())
    callback = trainer.checkpoint_callback
    assert steps, "no optimizer step"
    kept = sorted(callback.best_k_models)
    assert len(kept) == 2 and os.path.isfile(callback.last_model_path), (
        kept,
        callback.last_model_path,
    )
    if rank == 0:
        truncate(callback.last_model_path, callback.last_model_path + ".half")
        os.replace(callback.last_model_path + ".half", callback.last_model_path)
    dist.barrier()
    assert not zipfile.is_zipfile(callback.last_model_path)

    first_fit = len(steps)
    with lightning_machine(world_size, max_epochs=5):
        trainer = run_snippet(code)["trainer"]
    trainer.callbacks.append(gradient_check(steps))
    trainer.fit(LitModel(), ckpt_path=callback.best_model_path)
    assert len(steps) > first_fit
    if rank == 0:
        kept_one = os.path.basename(callback.best_model_path)
        print(f"kept 2 checkpoints and last.ckpt; resumed from {kept_one}")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
