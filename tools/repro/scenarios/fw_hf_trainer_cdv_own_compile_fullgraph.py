"""The Hugging Face Trainer given a model whose network the script compiled itself, in place,
with .compile(fullgraph=True) (torch.compile's nn.Module form), and whose forward branches in
Python on a tensor's value (if x.sum() > 0, as comp_unsupported_fullgraph_data_branch): Dynamo
cannot trace the branch into one graph and the first training step raises
torch._dynamo.exc.Unsupported on every rank, on two CPU processes under torchrun.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_cdv_support import GatedNetwork
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="hf-trainer-own-compile-fullgraph",
    description="transformers 5.24.0 Trainer: a model compiled with fullgraph=True by the script",
    expect="fail",
    role=BROKEN,
    key_text=("torch._dynamo.exc.Unsupported: Data-dependent branching", "transformers/trainer.py"),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()

    def compiled_network():
        network = GatedNetwork()
        network.compile(fullgraph=True)
        return network

    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo")
    train_hf(args, rank, net=compiled_network, check=False)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
