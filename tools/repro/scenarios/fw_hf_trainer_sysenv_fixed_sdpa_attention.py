"""Fix, in the Hugging Face Trainer: the entry's own snippet (the model loaded with
attn_implementation="sdpa", torch's attention, no flash_attn needed), rendered as the wizard
renders it and given the folder of a saved model, trains with the Trainer on two CPU processes
under torchrun, with gradients equal across ranks before every optimizer step.
"""

from tools.repro.framework_support import (
    hf_trainer_on_this_machine,
    report_equal_gradients,
    train_hf,
    work_in_temporary_directory,
)
from tools.repro.fw_sysenv_support import saved_tiny_gpt2
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="python-module-not-found",
    variant="hf-trainer-fixed-sdpa-attention",
    description='fix in transformers 5.24.0: the snippet, attn_implementation="sdpa"',
    expect="complete",
    role=FIXED,
    key_text=("attention: sdpa", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("optional-import", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    with saved_tiny_gpt2() as model_name:
        model = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model_name=model_name)[
            "model"
        ]
    if rank == 0:
        print("attention:", model.config._attn_implementation)
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    report_equal_gradients(train_hf(args, rank, language_model=lambda: model), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
