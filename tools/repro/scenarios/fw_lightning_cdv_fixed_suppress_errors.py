"""Fix, in Lightning: the entry's own snippet (torch._dynamo.config.suppress_errors = True, then
torch.compile of the LightningModule), rendered as the wizard renders it, on the machine whose
C++ compiler is missing: Inductor's failure is logged as a warning, the frame runs in eager
mode (the lab keeps that warning, its traceback, off the log and prints one line for it:
EagerFallbacks), and Lightning's DDP strategy fits the compiled module on two CPU processes
under torchrun, with gradients equal across ranks at every optimizer step.
"""

import lightning.pytorch as pl

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_cdv_support import EagerFallbacks
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.lightning_support import (
    fit_lightning,
    lightning_module_class,
    lightning_on_this_machine,
)
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="lightning-fixed-suppress-errors",
    description="fix in Lightning 2.6.6: the snippet, suppress_errors then torch.compile(module)",
    expect="complete",
    role=FIXED,
    key_text=(
        "frame(s) run in eager mode after InductorError: InvalidCxxCompiler: No working C++",
        "optimizer steps, gradients equal across ranks",
    ),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    snippet=("fall-back-to-eager", "lightning"),
    preload=("lightning.pytorch",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    fallbacks = EagerFallbacks()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    model = run_snippet(code, model=lightning_module_class()())["model"]
    with lightning_on_this_machine(accelerator="cpu", devices=world_size):
        trainer = pl.Trainer(strategy="ddp")
    report_equal_gradients(fit_lightning(trainer, rank, module=model), rank)
    fallbacks.report(rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
