"""Fix, in the Hugging Face Trainer: the entry's own snippet (a Trainer subclass whose
compute_loss builds the penalty with torch.autograd.grad(..., create_graph=True) on the
unwrapped model and returns one loss), rendered as the wizard renders it, for the network of
fw_hf_trainer_distb_create_graph_penalty: no create_graph backward reaches DDP, no warning, and
it trains on two CPU processes under torchrun, gradients equal across ranks at every optimizer
step.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    tanh_network,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="hf-trainer-fixed-penalty-outside-ddp",
    description="fix in the transformers 5.24.0 Trainer: the snippet's compute_loss penalty",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("penalty-outside-ddp", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    snippet = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    steps = train_hf(args, rank, net=tanh_network, trainer_class=snippet["PenaltyTrainer"])
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
