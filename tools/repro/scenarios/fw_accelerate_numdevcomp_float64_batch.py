"""Accelerate with float64 rows from NumPy (torch.from_numpy keeps NumPy's float64): the prepared
dataloader moves them to the device as they are, and the float32 network refuses them in its
first Linear, on two CPU processes under torchrun. The prepared model is DDP itself, so the
traceback goes from the script into DDP, with no Accelerate frame.
"""

from accelerate import Accelerator

from tools.repro.fw_numdevcomp_support import accelerate_float64_script, accelerate_float64_train
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dtype-mismatch",
    variant="accelerate-float64-batch",
    description="Accelerate 1.15.0: float64 NumPy rows through a prepared float32 model",
    expect="fail",
    role=BROKEN,
    key_text=("mat1 and mat2 must have the same dtype, but got Double and Float",),
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    accelerator = Accelerator(cpu=True)
    accelerate_float64_train(accelerator, *accelerate_float64_script(rank))


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
