"""The Hugging Face Trainer and the user's subclass whose compute_loss runs the forward inside
the DDP model's no_sync() (the Trainer's backward outside), two CPU processes under torchrun,
without static_graph: DDP decides in the forward whether the next backward is all-reduced, so
nothing is; no error, and the ranks' gradients differ at every optimizer step (silent, so the
capture goes to tests/corpus/_silent/).
"""

from transformers import TrainingArguments

from tools.repro.framework_support import train_hf, work_in_temporary_directory
from tools.repro.fw_distb_support import forward_in_no_sync_trainer, report_gradients
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="hf-trainer-forward-in-no-sync-backward-outside",
    description="transformers 5.24.0 Trainer: compute_loss's forward in no_sync(); exits 0, "
    "grads differ",
    expect="complete",
    role=BROKEN,
    silent=True,
    key_text=("optimizer steps: gradients differ across ranks",),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    args = TrainingArguments(output_dir="out", use_cpu=True, ddp_backend="gloo", num_train_epochs=1)
    equal = []
    train_hf(args, rank, check=False, trainer_class=forward_in_no_sync_trainer(equal))
    report_gradients(equal, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
