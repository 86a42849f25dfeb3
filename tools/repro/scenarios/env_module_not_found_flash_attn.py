"""ENV-005: the training script imports a package the interpreter running it does not have.

``flash_attn`` is the package the field reports most often; it is not installed in the lab's
environment (as it is not in a fresh environment, or in the other virtualenv or conda env that
the launcher's ``python`` belongs to). The import sits at the top of the script, so under
torchrun every worker fails before its process group exists (no ``[rankN]:`` prefix) and with
torch.multiprocessing.spawn the parent fails before starting any worker.
"""

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="python-module-not-found",
    variant="flash-attn-not-installed",
    description="from flash_attn import flash_attn_func where flash_attn is not installed",
    expect="fail",
    key_text=("ModuleNotFoundError: No module named 'flash_attn'",),
)


def main(rank, world_size):
    raise AssertionError("never reached")


if __name__ == "__main__":
    from flash_attn import flash_attn_func  # noqa: F401  (not installed here)

    launch(main, SCENARIO)
