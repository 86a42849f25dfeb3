"""ENV-004: pip's torchvision (a CUDA build) beside the CPU build of torch.

The lab's torch is 2.13.0+cpu; ``.lab/torchvision`` holds pip's torchvision 0.28.0, the
release made for torch 2.13 but built for CUDA: its compiled ops (``_C.so``) need
``libtorch_cuda.so``, which the CPU torch lacks, so they fail to load without a word, and the
first registration of a fake kernel for ``torchvision::nms`` finds no such operator. The
import sits at the top of the script (under torchrun every worker fails before its process
group exists; with spawn the parent fails before starting any worker).
"""

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="torchvision-version-mismatch",
    variant="cuda-torchvision-beside-cpu-torch",
    description="import torchvision (pip's CUDA build 0.28.0) with torch 2.13.0+cpu",
    expect="fail",
    key_text=(
        '@torch.library.register_fake("torchvision::nms")',
        "RuntimeError: operator torchvision::nms does not exist",
    ),
    env={"PYTHONPATH": ".lab/torchvision"},  # env_support.LAB_TORCHVISION, from the root
)


def main(rank, world_size):
    raise AssertionError("never reached")


if __name__ == "__main__":
    import torchvision  # noqa: F401

    launch(main, SCENARIO)
