"""Fix, in Lightning: the entry's own Lightning snippet (the DataLoader with a functools.partial of
a module-level collate function), rendered as the wizard renders it for one worker and imported
as the user's module, fits under the spawn start method on two CPU processes under torchrun: the
spawned worker finds the collate function by name, and every batch arrives scaled, with
gradients equal across ranks at every optimizer step."""

import lightning.pytorch as pl
import torch.multiprocessing as mp

from tools.repro.data_support import import_as_module
from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import batch_module
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.snippets import fix_snippet

SCENARIO = Scenario(
    slug="multiprocessing-spawn-pickle",
    variant="lightning-fixed-module-level-collate",
    description="fix in Lightning 2.6.6: the snippet's module-level collate_fn, workers spawned",
    expect="complete",
    role=FIXED,
    key_text=("batches scaled by 0.5", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("module-level-callables", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    mp.set_start_method("spawn", force=True)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, loader_num_workers="1")
    user = import_as_module(
        code,
        "from tools.repro.fw_data2_support import RankSquares\n"
        f"dataset = RankSquares({rank})\nbatch_size = 4",
        stem=f"user_lightning_loader_{rank}",
    )
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    module = batch_module(keep=True)
    steps = fit_lightning(trainer, rank, module=module, dataloader=user.train_loader)
    expected = [0.5 * float(i + rank) ** 2 for i in range(16)]
    assert [v for b in module.kept for v in b.flatten().tolist()] == expected, module.kept
    if rank == 0:
        print(f"{len(module.kept)} batches scaled by 0.5")
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
