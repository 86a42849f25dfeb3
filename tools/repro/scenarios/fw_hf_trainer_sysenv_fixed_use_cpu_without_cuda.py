"""Fix, in the Hugging Face Trainer: the entry's own snippet (no .to("cuda"): the Trainer places
the model itself, `use_cpu=not torch.cuda.is_available()`), rendered as the wizard renders it,
trains on the CPU build of torch 2.13.0 on two processes under torchrun, with gradients equal
across ranks before every optimizer step. The snippet's use_cpu is the only one given: the
scenario adds none of its own.
"""

from tools.repro.framework_support import (
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="torch-not-compiled-with-cuda",
    variant="hf-trainer-fixed-use-cpu-without-cuda",
    description="fix in transformers 5.24.0: the snippet, use_cpu=not torch.cuda.is_available()",
    expect="complete",
    role=FIXED,
    key_text=("use_cpu: True, device: cpu", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("device-from-availability", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    if rank == 0:
        print(f"use_cpu: {args.use_cpu}, device: {args.device}")
    report_equal_gradients(train_hf(args, rank), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
