"""The Hugging Face Trainer and a model whose token embeddings are resized to the tokenizer of
each node, one of which adds two special tokens: rank 1's embedding has 36 rows where rank 0's
has 34, and DDP's constructor, when Trainer.train wraps the model, refuses rank 1's, on two CPU
processes under torchrun. Rank 0 only sees its peer go.
"""

from transformers import TrainingArguments

from tools.repro.framework_support import tiny_gpt2, train_hf, work_in_temporary_directory
from tools.repro.fw_dista_support import tokenizer_with
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-param-shape-mismatch",
    variant="hf-trainer-vocab-from-this-node",
    description="transformers 5.24.0 Trainer: resize_token_embeddings to a per-node tokenizer",
    expect="fail",
    role=BROKEN,
    key_text=(
        "params[0] in this process with sizes [36, 8] appears not to match sizes of the same "
        "param in process 0.",
        "transformers/trainer.py",
    ),
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    tokenizer = tokenizer_with(extra_tokens=0 if rank == 0 else 2)
    model = tiny_gpt2()
    model.resize_token_embeddings(len(tokenizer))
    args = TrainingArguments(output_dir="out", use_cpu=True, num_train_epochs=1)
    train_hf(args, rank, check=False, language_model=lambda: model)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
