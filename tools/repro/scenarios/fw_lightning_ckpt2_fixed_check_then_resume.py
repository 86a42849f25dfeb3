"""Fix, in Lightning: the entry's own Lightning snippet (check_checkpoint, then
Trainer.fit(model, ckpt_path=...)), rendered as the wizard renders it for a file from a git
clone: run on the Git LFS pointer of fw_lightning_ckpt2_lfs_pointer_last_ckpt it names the
pointer before Lightning reads it; with the real last.ckpt in its place (what `git lfs pull`
does), it resumes the fit on two CPU processes under torchrun, with gradients equal across
ranks at every optimizer step.
"""

import os

import torch.distributed as dist

from tools.repro.ckpt_support import lfs_pointer
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_ckpt2_support import (
    lightning_machine,
    lit_module_class,
    save_lightning_checkpoint,
    shared_dir,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import gradient_check
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="checkpoint-corrupt-file",
    variant="lightning-fixed-check-then-resume",
    description="fix in Lightning 2.6.6: the snippet's check_checkpoint, then fit(ckpt_path=...)",
    expect="complete",
    role=FIXED,
    key_text=(
        "last.ckpt is a Git LFS pointer: run `git lfs pull`",
        "optimizer steps, gradients equal across ranks",
    ),
    launchers=("torchrun",),
    snippet=("fetch-the-real-file", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    shared_dir()
    LitModel = lit_module_class(rank)
    save_lightning_checkpoint(LitModel(), world_size, "real.ckpt")  # rank 0 writes it
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, ckpt_file_origin="git_lfs")
    if rank == 0:
        lfs_pointer("last.ckpt")
    dist.barrier()
    try:
        run_snippet(code, model=LitModel())
        raise AssertionError("the snippet loaded a Git LFS pointer")
    except ValueError as refused:
        assert "Git LFS pointer" in str(refused), refused
        if rank == 0:
            print(refused)
    dist.barrier()
    if rank == 0:
        os.replace("real.ckpt", "last.ckpt")  # what `git lfs pull` does
    dist.barrier()
    steps = []
    with lightning_machine(world_size, max_epochs=2, callbacks=[gradient_check(steps)]):
        run_snippet(code, model=LitModel())
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
