"""Fix, in Lightning: the entry's own Lightning snippet (pl.Trainer(detect_anomaly=True)), rendered
as the wizard renders it, fits the same residual-norm loss on residuals that are not zero (random
regression targets, num_support.regression_batches) on two CPU processes under torchrun: anomaly
mode finds nothing to report, and it trains with gradients equal across ranks at every optimizer
step."""

from torch.utils.data import DataLoader

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_data2_support import residual_norm_module
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import fit_lightning, lightning_on_this_machine
from tools.repro.num_support import regression_batches
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="autograd-anomaly-nan",
    variant="lightning-fixed-detect-anomaly-finite",
    description="fix in Lightning 2.6.6: the snippet's detect_anomaly=True on finite gradients",
    expect="complete",
    role=FIXED,
    key_text=("4 optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("find-the-first-nan", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = run_snippet(code)["trainer"]
    module = residual_norm_module()
    loader = DataLoader(regression_batches(rank), batch_size=None)
    steps = fit_lightning(trainer, rank, module=module, dataloader=loader)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
