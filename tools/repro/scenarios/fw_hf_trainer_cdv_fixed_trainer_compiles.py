"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments with
torch_compile=True, the script's own torch.compile call dropped), rendered as the wizard renders
it: the Trainer compiles the model without fullgraph, the data-dependent branch of the model of
fw_hf_trainer_cdv_own_compile_fullgraph becomes a graph break (the graphs traced with the eager
backend: fw_cdv_support.eager_backend), and the Trainer trains on two CPU processes under
torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_cdv_support import GatedNetwork, eager_backend, report_graph_breaks
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="hf-trainer-fixed-trainer-compiles",
    description="fix in transformers 5.24.0: the snippet, torch_compile=True and no own compile",
    expect="complete",
    role=FIXED,
    key_text=("graph break: Data-dependent branching", "optimizer steps, gradients equal"),
    launchers=("torchrun",),
    snippet=("allow-graph-breaks", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["args"]
    with eager_backend():  # the Trainer's "inductor", traced by Dynamo as it is
        steps = train_hf(args, rank, net=GatedNetwork)
    report_equal_gradients(steps, rank)
    report_graph_breaks(rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
