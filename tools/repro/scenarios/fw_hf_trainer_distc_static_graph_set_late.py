"""The Hugging Face Trainer and a Trainer subclass that switches static_graph on once training
is under way (`model._set_static_graph()` on the wrapped model its training_step is given,
from the second step on), two CPU processes under torchrun: the reducer has recorded the first
iteration and refuses the switch.
"""

from transformers import Trainer, TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-static-graph-misc-warnings",
    variant="hf-trainer-static-graph-set-late",
    description="transformers 5.24.0 Trainer: _set_static_graph() from the second step",
    expect="fail",
    role=BROKEN,
    key_text=(
        "set_static_graph() should be called before training loop starts and after "
        "DistributedDataParallel is constructed.",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


class StaticGraphAfterWarmUp(Trainer):
    def training_step(self, model, inputs, num_items_in_batch=None):
        if self.state.global_step == 1:
            model._set_static_graph()
        return super().training_step(model, inputs, num_items_in_batch)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(output_dir="out", use_cpu=True, ddp_backend="gloo", num_train_epochs=1)
    train_hf(args, rank, check=False, trainer_class=StaticGraphAfterWarmUp)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
