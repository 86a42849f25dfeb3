"""Fix, in Accelerate: the entry's own snippet (model.encoder.requires_grad_(False) on every
process, then prepare(model, optimizer)), rendered as the wizard renders it, then the user's
loop: trains on two CPU processes under torchrun, gradients equal across ranks at every
optimizer step.
"""

from tools.repro.fw_dista_support import EncodedLoss, accelerate_model_fix
from tools.repro.harness import FIXED, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="ddp-param-count-mismatch",
    variant="accelerate-fixed-freeze-on-every-process",
    description="fix in Accelerate 1.15.0: the snippet, the encoder frozen on every process",
    expect="complete",
    role=FIXED,
    key_text=("optimizer steps, gradients equal across ranks",),
    launchers=("torchrun",),
    snippet=("same-trainable-params", "accelerate"),
    preload=("accelerate",),
)


main = accelerate_model_fix(SCENARIO, EncodedLoss)


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
