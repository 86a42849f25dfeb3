"""Fix, in Lightning: the entry's own Lightning snippet (the DataLoader with pad_collate, taken
from the plain form of the fix as its comment says), rendered as the wizard renders it for one
worker, fits the same sequences on two CPU processes under torchrun, with gradients equal across
ranks at every optimizer step."""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine, sequence_module
from tools.repro.scenarios.data_collate_variable_sizes import Sequences
from tools.repro.snippets import definitions, fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="collate-tensor-size-mismatch",
    variant="lightning-fixed-pad-collate",
    description="fix in Lightning 2.6.6: the entry's snippet, a DataLoader with pad_collate",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("pad-in-collate", "lightning"),
    preload=("lightning.pytorch",),
)
WORKERS = {"loader_num_workers": "1"}


def main(rank, world_size):
    work_in_temporary_directory()
    plain = fix_snippet(SCENARIO.slug, SCENARIO.snippet[0], "pytorch", **WORKERS)
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet, **WORKERS)
    snippet = run_snippet(
        code, dataset=Sequences(), batch_size=4, **definitions(plain, "pad_collate")
    )
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    steps = fit_lightning(
        trainer, rank, module=sequence_module(), dataloader=snippet["train_loader"]
    )
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
