"""COMP-001 fix: the entry's plain-PyTorch snippet points Inductor's cpp.cxx at a C++ compiler
that exists (the CXX variable still names a missing one, as in comp_inductor_no_cxx_compiler),
and the compiled model gives the eager model's output on every rank."""

import torch
import torch.nn as nn

from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="fixed-point-at-compiler",
    description="fix (the entry's snippet): cpp.cxx set to a compiler on PATH",
    expect="complete",
    role=FIXED,
    key_text=("inductor with a working compiler: same output as eager",),
    env={"CXX": "faultline-no-such-g++", "TORCHINDUCTOR_COMPILE_THREADS": "1"},
    snippet=("install-compiler", "pytorch"),
)


def main(rank, world_size):
    run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))
    torch.manual_seed(0)
    eager = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
    compiled = torch.compile(eager)
    x = torch.randn(4, 8)
    with torch.no_grad():  # one graph to compile with g++ (a backward would be a second one)
        torch.testing.assert_close(compiled(x), eager(x))
    if rank == 0:
        print("inductor with a working compiler: same output as eager")


if __name__ == "__main__":
    launch(main, SCENARIO)
