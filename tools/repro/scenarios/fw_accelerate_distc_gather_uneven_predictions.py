"""Accelerate under TORCH_DISTRIBUTED_DEBUG=DETAIL, and an evaluation whose last batch leaves
4 predictions on rank 0 and 3 on rank 1, gathered with accelerator.gather_for_metrics, two CPU
processes under torchrun: gather_for_metrics all-gathers the tensors as they are, and DETAIL
reports the different shapes at once.
"""

from accelerate import Accelerator

from tools.repro.fw_distc_support import uneven_predictions
from tools.repro.harness import BROKEN, Scenario, launch_without_group

SCENARIO = Scenario(
    slug="dist-collective-mismatch-detail",
    variant="accelerate-gather-for-metrics-uneven-predictions",
    description="Accelerate 1.15.0, DETAIL: gather_for_metrics of 4 and 3 predictions",
    expect="fail",
    role=BROKEN,
    key_text=("Detected mismatch between collectives on ranks", "accelerate/"),
    env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"},
    launchers=("torchrun",),
    preload=("accelerate",),
)


def main(rank, world_size):
    accelerator = Accelerator(cpu=True)
    predictions = accelerator.gather_for_metrics(uneven_predictions(rank))
    print(f"rank {rank}: {predictions.tolist()}")


if __name__ == "__main__":
    launch_without_group(main, SCENARIO)
