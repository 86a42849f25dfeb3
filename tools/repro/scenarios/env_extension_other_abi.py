"""ENV-001: a compiled extension built for a torch of the other C++ ABI.

The extension (a module calling ``TORCH_CHECK``, so it needs ``c10::detail::torchCheckFail``
from libc10) is compiled with ``-D_GLIBCXX_USE_CXX11_ABI=0``, as extensions prebuilt for the
old pip wheels were; torch 2.13.0 uses the C++11 ABI, so its libc10 exports the function with
the other ``std::string`` in its mangled name and the import fails with ``undefined symbol:
..._ZN3c106detail14torchCheckFailEPKcS2_jRKSs`` (``Ss`` is the old ``std::string``). Each rank
imports it once its process group is up, as a model that loads its custom op would.
"""

import sys

import torch

from tools.repro.env_support import build_extension
from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="extension-undefined-symbol",
    variant="extension-built-for-the-other-cxx-abi",
    description="import an extension compiled with _GLIBCXX_USE_CXX11_ABI=0 into torch 2.13",
    expect="fail",
    key_text=("undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs",),
)


def main(rank, world_size):
    sys.path.insert(0, str(build_extension("fused_ops", cxx11_abi=False)))
    import fused_ops

    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 1))
    fused_ops.check_positive(model.module.out_features)


if __name__ == "__main__":
    launch(main, SCENARIO)
