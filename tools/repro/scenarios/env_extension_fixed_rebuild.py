"""ENV-001 fix: the entry's plain-PyTorch snippet, a setup.py that builds the extension with
torch.utils.cpp_extension, compiles the same source against the installed torch (its headers
and C++ ABI); the rebuilt module imports, its TORCH_CHECK raises torch's own error for a bad
value, and training goes on with equal gradients across ranks."""

import contextlib
import os
import sys
import tempfile
from pathlib import Path

import torch

from tools.repro.env_support import extension_source
from tools.repro.harness import FIXED, Scenario, check_each_step, launch
from tools.repro.models import LinearLoss
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="extension-undefined-symbol",
    variant="fixed-rebuilt-against-installed-torch",
    description="fix (the entry's snippet): rebuild with torch.utils.cpp_extension",
    expect="complete",
    role=FIXED,
    key_text=("rebuilt extension imports and checks; gradients equal across ranks",),
    snippet=("rebuild-against-installed-torch", "pytorch"),
)


def build_with_the_snippet(folder):
    (folder / "my_extension.cpp").write_text(extension_source("my_extension"))
    code = fix_snippet(SCENARIO.slug, *SCENARIO.snippet)
    argv, cwd = sys.argv, os.getcwd()
    sys.argv = ["setup.py", "--quiet", "build_ext", "--inplace"]
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            run_snippet(code)
    finally:
        sys.argv = argv
        os.chdir(cwd)


def main(rank, world_size):
    folder = Path(tempfile.mkdtemp(prefix="faultline-ext-"))
    build_with_the_snippet(folder)
    sys.path.insert(0, str(folder))
    import my_extension

    assert my_extension.check_positive(3) == 3
    try:
        my_extension.check_positive(-1)
    except RuntimeError as error:  # TORCH_CHECK raises c10::Error, seen as RuntimeError
        assert "expected a positive number, got -1" in str(error)
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(LinearLoss())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    steps = check_each_step(optimizer, model.module)
    torch.manual_seed(rank)
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).backward()
        optimizer.step()
    assert len(steps) == 3, steps
    if rank == 0:
        print("rebuilt extension imports and checks; gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
