"""Fix, in the Hugging Face Trainer: the entry's own snippet (torch._dynamo.config.suppress_errors
= True, then TrainingArguments with torch_compile=True), rendered as the wizard renders it, on the
machine whose C++ compiler is missing: Inductor's failure is logged as a warning, the frame runs
in eager mode (the lab keeps that warning, its traceback, off the log and prints one line for
it: EagerFallbacks), and the Trainer trains on two CPU processes under torchrun, with gradients
equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_cdv_support import EagerFallbacks
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="hf-trainer-fixed-suppress-errors",
    description="fix in transformers 5.24.0: the snippet, suppress_errors and torch_compile=True",
    expect="complete",
    role=FIXED,
    key_text=(
        "frame(s) run in eager mode after InductorError: InvalidCxxCompiler: No working C++",
        "optimizer steps, gradients equal across ranks",
    ),
    env={"CXX": "faultline-no-such-g++"},  # as comp_inductor_no_cxx_compiler
    launchers=("torchrun",),
    snippet=("fall-back-to-eager", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    fallbacks = EagerFallbacks()
    with hf_trainer_on_this_machine():
        args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    report_equal_gradients(train_hf(args, rank), rank)
    fallbacks.report(rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
