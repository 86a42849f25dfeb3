"""Negative: the training script dies on an import before any DDP code runs.

The missing package is imported at the top of the script body (kept under
``if __name__ == "__main__"`` only so the scenario registry can import this
module to read SCENARIO).  Under torchrun every worker fails the same way and
the launcher reports ChildFailedError; with spawn the parent dies before
spawning any worker.
"""

from tools.repro.harness import NEGATIVE, NEGATIVE_SLUG, Scenario, launch

SCENARIO = Scenario(
    slug=NEGATIVE_SLUG,
    variant="module-not-found",
    description="negative: ModuleNotFoundError at the top of the training script",
    expect="fail",
    role=NEGATIVE,
    key_text=("ModuleNotFoundError: No module named 'faultline_datasets'",),
)


def main(rank, world_size):
    raise AssertionError("never reached")


if __name__ == "__main__":
    from faultline_datasets import ShardedTextDataset  # noqa: F401  (not installed)

    launch(main, SCENARIO)
