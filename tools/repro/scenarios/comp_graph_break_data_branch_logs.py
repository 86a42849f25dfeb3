"""COMP-006: the same data-dependent if, compiled without fullgraph and run with
TORCH_LOGS=graph_breaks: Dynamo logs "Graph break in user code at ..." and "Graph Break
Reason: Data-dependent branching", compiles the code around the branch as separate graphs,
and training completes with the eager results. A performance note, not an error.
"""

import torch
import torch.nn as nn

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="dynamo-graph-break",
    variant="data-dependent-branch-logs",
    description="torch.compile of a function with if x.sum() > 0, TORCH_LOGS=graph_breaks",
    expect="complete",
    key_text=(
        "Graph break in user code at",
        "Graph Break Reason: Data-dependent branching",
        "3 steps with a graph break, same results as eager",
    ),
    env={"TORCH_LOGS": "graph_breaks"},
)


def gate(x):
    if x.sum() > 0:
        return x * 2
    return -x


def main(rank, world_size):
    torch.manual_seed(rank)
    layer = nn.Linear(8, 8)
    compiled_gate = torch.compile(gate, backend="eager")
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    for step in range(3):
        optimizer.zero_grad()
        h = layer(torch.randn(4, 8) + (1 if step % 2 else -1))
        out = compiled_gate(h)
        torch.testing.assert_close(out, gate(h))
        out.pow(2).mean().backward()
        optimizer.step()
    if rank == 0:
        print("3 steps with a graph break, same results as eager")


if __name__ == "__main__":
    launch(main, SCENARIO)
