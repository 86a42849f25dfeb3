"""A Trainer script that loads its model with attn_implementation="flash_attention_2" where
flash_attn is not installed (transformers 5.24.0, two CPU processes under torchrun): the model
refuses to build inside from_pretrained, before the Trainer starts, in transformers' own words
rather than Python's "No module named 'flash_attn'".
"""

from transformers import AutoModelForCausalLM, TrainingArguments

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_sysenv_support import saved_tiny_gpt2
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="python-module-not-found",
    variant="hf-trainer-flash-attention-missing",
    description='transformers 5.24.0: attn_implementation="flash_attention_2" without flash_attn',
    expect="fail",
    role=BROKEN,
    key_text=(
        "FlashAttention2 has been toggled on, but it cannot be used due to the following error",
        "transformers/modeling_utils.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    with saved_tiny_gpt2() as model_name:
        model = AutoModelForCausalLM.from_pretrained(
            model_name, attn_implementation="flash_attention_2"
        )
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    train_hf(args, rank, check=False, language_model=lambda: model)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
