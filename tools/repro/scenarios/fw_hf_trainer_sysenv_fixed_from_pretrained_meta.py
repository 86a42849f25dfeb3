"""The entry's own Trainer snippet for loading a checkpoint without a second copy in memory
(`from_pretrained(model_name, dtype="auto")`: transformers 5.24.0 builds the model on the meta
device and fills it from the checkpoint), rendered as the wizard renders it and given the
folder of a saved model, loads it on each of two CPU processes under torchrun; the Trainer then
trains it, with gradients equal across ranks before every optimizer step. What it checks is
that the snippet is right for the pinned transformers; the out-of-memory kill is not provoked.
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
    slug="host-out-of-memory-killed",
    variant="hf-trainer-fixed-from-pretrained-meta",
    description='fix in transformers 5.24.0: the snippet, from_pretrained(..., dtype="auto")',
    expect="complete",
    role=FIXED,
    key_text=("loaded: float32", "optimizer steps, gradients equal across ranks"),
    launchers=("torchrun",),
    snippet=("load-checkpoint-memory-mapped", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    from transformers import TrainingArguments

    work_in_temporary_directory()
    with saved_tiny_gpt2() as model_name:
        code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
        model = run_snippet(code, model_name=model_name)["model"]
    if rank == 0:
        print("loaded:", str(model.dtype).removeprefix("torch."))
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", ddp_backend="gloo", num_train_epochs=1)
    report_equal_gradients(train_hf(args, rank, language_model=lambda: model), rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
