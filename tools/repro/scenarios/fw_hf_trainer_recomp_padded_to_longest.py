"""The Hugging Face Trainer with torch_compile=True under the environment `accelerate launch`
gives it (ACCELERATE_DYNAMO_USE_DYNAMIC=False, so Accelerate's TorchDynamoPlugin compiles with
dynamic=False: fw_recomp_support), on tokenised examples of lengths 9 to 80 that
DataCollatorWithPadding(tokenizer) pads to each batch's longest: every new batch length fails a
size guard and compiles again, until Dynamo hits config.recompile_limit (8), logs it and runs
the model's forward in eager mode for the rest of training, which completes, on two CPU
processes under torchrun. (The Trainer's "inductor" is traced with the eager backend:
fw_cdv_support.eager_backend; the guards and the limit are Dynamo's.)
"""

from transformers import DataCollatorWithPadding, TrainingArguments

from tools.repro.framework_support import hf_trainer_on_this_machine, work_in_temporary_directory
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend
from tools.repro.fw_data2_support import tiny_tokenizer, train_hf_on
from tools.repro.fw_recomp_support import PooledRegressor, VaryingLengthSequences
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="hf-trainer-compile-padded-to-longest",
    description="transformers 5.24.0 Trainer: torch_compile=True, dynamic=False, 9 to 80 tokens",
    expect="complete",
    role=BROKEN,
    key_text=("torch._dynamo hit config.recompile_limit (8)", "size mismatch at index 1"),
    env={"ACCELERATE_DYNAMO_USE_DYNAMIC": "False"},  # as `accelerate launch` sets it
    launchers=("torchrun",),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    warnings = RecompileWarnings()
    with hf_trainer_on_this_machine():
        args = TrainingArguments(output_dir="out", torch_compile=True)
    with eager_backend():
        train_hf_on(
            args,
            PooledRegressor(),
            VaryingLengthSequences(rank),
            check=False,
            data_collator=DataCollatorWithPadding(tiny_tokenizer()),
        )
    assert warnings.count, "the recompile limit was not reached"


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
