"""Accelerate asked to compile (Accelerator(dynamo_plugin=TorchDynamoPlugin(backend="inductor")))
in the environment `accelerate launch` sets (ACCELERATE_DYNAMO_USE_DYNAMIC=False, so the plugin
compiles with dynamic=False: fw_recomp_support), on batches of twelve sequence lengths
(fw_cdv_support.varying_length_batches), two CPU processes under torchrun: every new length
fails a size guard and compiles again, until Dynamo hits config.recompile_limit (8), logs it and
runs the forward in eager mode from then on; the script's loop completes, without compilation,
with gradients equal across ranks. (The graphs are traced with the eager backend:
fw_cdv_support.eager_backend; the guards and the limit are Dynamo's.)
"""

from accelerate import Accelerator
from accelerate.utils import TorchDynamoPlugin

from tools.repro.accelerate_support import (
    accelerate_names,
    accelerate_on_this_machine,
    accelerate_train,
)
from tools.repro.framework_support import report_equal_gradients
from tools.repro.fw_cdv_support import RecompileWarnings, eager_backend, varying_length_batches
from tools.repro.harness import BROKEN, Scenario, check_every_optimizer_step, launch_without_group

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="accelerate-compiled-varying-lengths",
    description="Accelerate 1.15.0: TorchDynamoPlugin under `accelerate launch`, 12 lengths",
    expect="complete",
    role=BROKEN,
    key_text=("torch._dynamo hit config.recompile_limit (8)", "size mismatch at index 1"),
    env={"ACCELERATE_DYNAMO_USE_DYNAMIC": "False"},  # as `accelerate launch` sets it
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    script = accelerate_names(rank)
    steps = check_every_optimizer_step(script["model"])
    warnings = RecompileWarnings()
    with accelerate_on_this_machine():
        accelerator = Accelerator(dynamo_plugin=TorchDynamoPlugin(backend="inductor"))
    with eager_backend():
        model, optimizer = accelerator.prepare(script["model"], script["optimizer"])
        accelerate_train(accelerator, model, optimizer, varying_length_batches(rank))
    assert warnings.count, "the recompile limit was not reached"
    report_equal_gradients(steps, rank)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
