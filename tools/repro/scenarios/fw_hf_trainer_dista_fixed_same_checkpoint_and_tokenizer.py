"""Fix, in the Hugging Face Trainer: the entry's own snippet (the config from the same
checkpoint and revision on every rank, the model built from it and resized to the same
tokenizer), rendered as the wizard renders it, then the script's Trainer: trains on two CPU
processes under torchrun, gradients equal across ranks before every optimizer step.
"org/model" is a local directory holding tiny_gpt2's config (nothing is downloaded), and the
tokenizer is the same on every rank.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import report_equal_gradients, tiny_gpt2, train_hf
from tools.repro.fw_dista_support import tokenizer_with, work_in_own_directory
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="hf-trainer-fixed-same-checkpoint-and-tokenizer",
    description="fix in the transformers 5.24.0 Trainer: the snippet, one config, one tokenizer",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-model-on-every-rank", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    import torch.distributed as dist

    work_in_own_directory(SCENARIO.variant)
    args = TrainingArguments(output_dir="out", use_cpu=True, num_train_epochs=1)
    if rank == 0:
        tiny_gpt2().config.save_pretrained("org/model")
    dist.barrier()  # TrainingArguments(use_cpu=True) has set up the process group
    names = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), tokenizer=tokenizer_with())
    model = names["model"]
    assert model.get_input_embeddings().weight.shape[0] == 34
    steps = train_hf(args, rank, language_model=lambda: model)
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
