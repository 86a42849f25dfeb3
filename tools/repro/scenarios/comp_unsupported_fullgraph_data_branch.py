"""COMP-005: a function compiled with fullgraph=True branches in Python on a tensor's value
(if x.sum() > 0). Dynamo cannot trace the branch; without fullgraph it would be a graph break,
with fullgraph=True every rank raises torch._dynamo.exc.Unsupported: Data-dependent branching
at the first call, before any backend runs.
"""

import torch
import torch.nn as nn

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="fullgraph-data-dependent-branch",
    description="torch.compile(fullgraph=True) of a function with if x.sum() > 0",
    expect="fail",
    key_text=("torch._dynamo.exc.Unsupported: Data-dependent branching",),
)


def gate(x):
    if x.sum() > 0:
        return x * 2
    return -x


def main(rank, world_size):
    torch.manual_seed(0)
    layer = nn.Linear(8, 8)
    compiled_gate = torch.compile(gate, fullgraph=True)
    loss = compiled_gate(layer(torch.randn(4, 8))).pow(2).mean()
    loss.backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
