"""Fix, in the Hugging Face Trainer: the entry's own snippet (the process group created with a
60-minute timeout, then TrainingArguments(use_cpu=True, ddp_backend="gloo", ddp_timeout=3600)),
rendered as the wizard renders it, trains the model on two CPU processes under torchrun while
rank 0 does 5 s of work of its own before the second step (longer than the broken run's
timeout), with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_distc_support import late_rank_trainer
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="gloo-collective-timeout",
    variant="hf-trainer-fixed-timeout-covers-slow-rank",
    description="fix in the transformers 5.24.0 Trainer: a 60-minute group, rank 0 busy 5 s",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-collectives-on-every-rank", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    import torch.distributed as dist

    work_in_temporary_directory()
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    with hf_trainer_on_this_machine():
        args = run_snippet(code)["args"]
    assert dist.is_initialized()
    steps = train_hf(args, rank, trainer_class=late_rank_trainer(rank))
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
