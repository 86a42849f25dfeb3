"""The entry's own Lightning snippet (pl.Trainer(detect_anomaly=True)), rendered as the wizard
renders it, fitting a loss that is the Euclidean norm of a residual that is exactly zero (a
zero-initialised model on zero targets, num_support.zero_batches), two CPU processes under
torchrun: the sqrt's backward returns NaN at the first step, and anomaly mode names the function
and the forward line that made it."""

from torch.utils.data import DataLoader

from tools.repro.framework_support import work_in_temporary_directory
from tools.repro.fw_data2_support import residual_norm_module
from tools.repro.harness import BROKEN, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.num_support import zero_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="autograd-anomaly-nan",
    variant="lightning-detect-anomaly-residual-norm",
    description="Lightning 2.6.6, the snippet's detect_anomaly=True: sqrt of a zero residual",
    expect="fail",
    role=BROKEN,
    key_text=(
        "returned nan values in its 0th output",
        "Traceback of forward call that caused the error",
        "lightning/pytorch/",
    ),
    launchers=("torchrun",),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, "find-the-first-nan", "lightning")
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = run_snippet(code)["trainer"]
    module = residual_norm_module()
    loader = DataLoader(zero_batches(), batch_size=None)
    fit_lightning(trainer, rank, check=False, module=module, dataloader=loader)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
