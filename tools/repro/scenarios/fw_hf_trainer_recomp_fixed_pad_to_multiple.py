"""Fix, in the Hugging Face Trainer: the entry's own snippet (TrainingArguments with
torch_compile=True and the Trainer built with DataCollatorWithPadding(tokenizer,
pad_to_multiple_of=64)), rendered as the wizard renders it, for the run of
fw_hf_trainer_recomp_padded_to_longest (the same environment of `accelerate launch`, so
dynamic=False; the same examples of 9 to 80 tokens; a tokenizer built in memory): every batch
arrives padded to 64 or 128, each length compiles once, Dynamo never hits the recompile limit,
and the Trainer trains on two CPU processes under torchrun, with gradients equal across ranks
before every optimizer step. (The Trainer's "inductor" is traced with the eager backend:
fw_cdv_support.eager_backend; the guards and the limit are Dynamo's.)
"""

from tools.repro.framework_support import report_equal_gradients, work_in_temporary_directory
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend
from tools.repro.fw_data2_support import (
    script_arguments_for_the_snippet,
    tiny_tokenizer,
    train_the_snippet_s_trainer,
)
from tools.repro.fw_recomp_support import (
    PooledRegressor,
    VaryingLengthSequences,
    record_batch_lengths,
)
from tools.repro.harness import FIXED, Scenario, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="hf-trainer-fixed-pad-to-multiple",
    description="fix in transformers 5.24.0: the snippet's pad_to_multiple_of=64 collator",
    expect="complete",
    role=FIXED,
    key_text=("padded to [64, 128], no recompile limit hit", "optimizer steps, gradients equal"),
    env={"ACCELERATE_DYNAMO_USE_DYNAMIC": "False"},  # as `accelerate launch` sets it
    launchers=("torchrun",),
    snippet=("mark-dynamic", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    work_in_temporary_directory()
    warnings = RecompileWarnings()
    model = PooledRegressor()
    with script_arguments_for_the_snippet():
        trainer = run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            model=model,
            train_dataset=VaryingLengthSequences(rank),
            tokenizer=tiny_tokenizer(),
        )["trainer"]
    lengths = record_batch_lengths(trainer)
    with eager_backend():
        steps = train_the_snippet_s_trainer(trainer, model)
    assert not warnings.count, "the recompile limit was hit"
    report_equal_gradients(steps, rank)
    if rank == 0:
        print(f"{len(lengths)} batches padded to {sorted(set(lengths))}, no recompile limit hit")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
