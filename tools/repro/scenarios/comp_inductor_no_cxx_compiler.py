"""COMP-001: Inductor compiles graphs on the CPU into C++ and needs a C++ compiler; here CXX
names one that does not exist, as on a slim image without build tools or with CXX pointing at
a removed toolchain. The first compiled training step fails on every rank with
torch._inductor.exc.InductorError: InvalidCxxCompiler (the BackendCompilerFailed of torch 2.6
and later), after Dynamo traced the model successfully.
"""

import torch
import torch.nn as nn

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="inductor-backend-compiler-failed",
    variant="no-cxx-compiler",
    description="torch.compile (inductor) on CPU with CXX naming a compiler that does not exist",
    expect="fail",
    key_text=(
        "torch._inductor.exc.InductorError: InvalidCxxCompiler: No working C++ compiler found",
    ),
    env={"CXX": "faultline-no-such-g++"},
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = torch.compile(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = model(torch.randn(4, 8)).pow(2).mean()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    launch(main, SCENARIO)
