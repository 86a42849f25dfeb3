"""Fix, in the Hugging Face Trainer: the entry's own snippet (Trainer(...), trainer.train(),
trainer.save_model("out")), rendered as the wizard renders it: the model trains on two CPU
processes under torchrun, gradients equal across ranks before every optimizer step, and
from_pretrained("out") loads the saved, unwrapped model.
"""

from transformers import GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments

from tools.repro.framework_support import (
    arguments_the_script_gives,
    report_equal_gradients,
    tiny_gpt2,
    token_dataset,
)
from tools.repro.fw_dista_support import work_in_own_directory
from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="ddp-state-dict-module-prefix",
    variant="hf-trainer-fixed-save-model",
    description="fix in the transformers 5.24.0 Trainer: the snippet, trainer.save_model('out')",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks", "from_pretrained loaded"),
    launchers=("torchrun",),
    snippet=("save-and-load-the-inner-module", "hf_trainer"),
    preload=("transformers.trainer",),
)


def main(rank, world_size):
    import torch.distributed as dist

    work_in_own_directory(SCENARIO.variant)
    model = tiny_gpt2()
    steps = []

    class CheckGradients(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            assert grads_match_across_ranks(model), f"step {state.global_step}: gradients differ"
            steps.append(state.global_step)

    args = TrainingArguments(
        output_dir="out", use_cpu=True, report_to=[], save_strategy="no", disable_tqdm=True
    )
    with arguments_the_script_gives(Trainer, callbacks=[CheckGradients()]):
        run_snippet(
            fix_snippet(SCENARIO.slug, *SCENARIO.snippet),
            model=model,
            args=args,
            train_dataset=token_dataset(rank),
        )
    report_equal_gradients(steps, rank)
    dist.barrier()
    if rank == 0:
        GPT2LMHeadModel.from_pretrained("out")
        print("from_pretrained loaded the saved model")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
