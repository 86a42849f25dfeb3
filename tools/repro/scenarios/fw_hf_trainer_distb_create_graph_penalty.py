"""The Hugging Face Trainer and the user's subclass whose training_step builds a gradient penalty
the naive way (as g2_create_graph_backward does in plain PyTorch): accelerator.backward(loss,
create_graph=True) through the Trainer's DDP model, then a backward of the squared .grad, two
CPU processes under torchrun. The reducer logs "Using DistributedDataParallel with
create_graph=True is not well-supported" and then fails it, "a leaf Variable that requires grad
is being used in an in-place operation." (transformers 5.24.0).
"""

from transformers import Trainer, TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    tanh_network,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-create-graph-warning",
    variant="hf-trainer-backward-create-graph",
    description="transformers 5.24.0 Trainer: training_step backwards with create_graph=True",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Using DistributedDataParallel with create_graph=True",
        "a leaf Variable that requires grad is being used in an in-place operation",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


class PenaltyTrainer(Trainer):
    def training_step(self, model, inputs, num_items_in_batch=None):
        model.train()
        loss = self.compute_loss(model, inputs)
        self.accelerator.backward(loss, create_graph=True)
        penalty = sum(p.grad.pow(2).sum() for p in model.parameters())
        self.accelerator.backward(penalty)
        return loss.detach()


def main(rank, world_size):
    work_in_temporary_directory()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    train_hf(args, rank, net=tanh_network, check=False, trainer_class=PenaltyTrainer)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
