"""A script that saves the Hugging Face Trainer's wrapped model (trainer.model_wrapped, the DDP
wrapper) after training and loads the file into a fresh model: every key has DDP's "module."
in front, and load_state_dict refuses them, on two CPU processes under torchrun.
"""

import torch
from transformers import Trainer, TrainingArguments

from tools.repro.framework_support import tiny_gpt2, token_dataset
from tools.repro.fw_dista_support import work_in_own_directory
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="hf-trainer-saved-from-wrapper",
    description="transformers 5.24.0 Trainer: model_wrapped.state_dict() loaded into a model",
    expect="fail",
    role=BROKEN,
    key_text=('Unexpected key(s) in state_dict: "module.',),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_own_directory(SCENARIO.variant)
    args = TrainingArguments(
        output_dir="out", use_cpu=True, report_to=[], save_strategy="no", disable_tqdm=True
    )
    trainer = Trainer(model=tiny_gpt2(), args=args, train_dataset=token_dataset(rank))
    trainer.train()
    if trainer.is_world_process_zero():
        torch.save(trainer.model_wrapped.state_dict(), "model.pt")
        tiny_gpt2().load_state_dict(torch.load("model.pt"))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
