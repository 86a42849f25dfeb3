"""Fix, in Accelerate: the entry's own snippet (Accelerator(dynamo_plugin=TorchDynamoPlugin(
backend="inductor", dynamic=True))), rendered as the wizard renders it, for the run of
fw_accelerate_recomp_dynamic_false (the same environment of `accelerate launch`, whose
ACCELERATE_DYNAMO_USE_DYNAMIC=False the explicit dynamic=True overrides; the same twelve
sequence lengths): Dynamo traces the length as a symbol, recompiles at most once, never hits
the recompile limit, and the script's loop trains on two CPU processes under torchrun, with
gradients equal across ranks after every optimizer step. (The graphs are traced with the eager
backend: fw_cdv_support.eager_backend.)
"""

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend, varying_length_batches
from tools.repro.harness import FIXED, Scenario, check_every_optimizer_step, launch_without_group
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="accelerate-fixed-dynamic",
    description="fix in Accelerate 1.15.0: the snippet, TorchDynamoPlugin(dynamic=True)",
    expect="complete",
    role=FIXED,
    key_text=("12 lengths, no recompile limit hit", "optimizer steps, gradients equal"),
    env={"ACCELERATE_DYNAMO_USE_DYNAMIC": "False"},  # as `accelerate launch` sets it
    launchers=("torchrun",),
    snippet=("mark-dynamic", "accelerate"),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    warnings = RecompileWarnings()
    with accelerate_on_this_machine():
        accelerator = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["accelerator"]
    with eager_backend():
        model, optimizer = accelerator.prepare(script["model"], script["optimizer"])
        accelerate_train(accelerator, model, optimizer, varying_length_batches(rank))
    assert not warnings.count, "the recompile limit was hit"
    report_equal_gradients(steps, rank)
    if rank == 0:
        print("12 lengths, no recompile limit hit")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
