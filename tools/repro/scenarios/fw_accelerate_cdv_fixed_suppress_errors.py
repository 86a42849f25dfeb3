"""Fix, in Accelerate: the entry's own snippet (torch._dynamo.config.suppress_errors = True, then
Accelerator(dynamo_backend="inductor")), rendered as the wizard renders it, on the machine whose
C++ compiler is missing: Inductor's failure is logged as a warning, the frame runs in eager mode
(the lab keeps that warning, its traceback, off the log and prints one line for it:
EagerFallbacks), and the script's prepare and loop train on two CPU processes under torchrun,
with gradients equal across ranks after every optimizer step.
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_cdv_support import EagerFallbacks
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="accelerate-fixed-suppress-errors",
    description='fix in Accelerate 1.15.0: the snippet, suppress_errors, dynamo_backend="inductor"',
    expect="complete",
    role=FIXED,
    key_text=(
        "frame(s) run in eager mode after InductorError: InvalidCxxCompiler: No working C++",
        "optimizer steps, gradients equal across ranks",
    ),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    snippet=("fall-back-to-eager", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    fallbacks = EagerFallbacks()
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    accelerate_train(
        accelerator,
        *accelerator.prepare(script["model"], script["optimizer"], script["dataloader"]),
    )
    report_equal_gradients(steps, rank)
    fallbacks.report(rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
