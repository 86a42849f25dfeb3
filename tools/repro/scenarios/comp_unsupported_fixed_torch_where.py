"""COMP-005 fix: the entry's plain-PyTorch snippet replaces the data-dependent if with
torch.where; compiled with fullgraph=True it traces as one graph and trains for 3 steps with
the same results as the eager function of comp_unsupported_fullgraph_data_branch."""

import torch
import torch.nn as nn

from tools.repro.comp_support import eager_by_default
from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-unsupported",
    variant="fixed-torch-where",
    description="fix (the entry's snippet): torch.where instead of if x.sum() > 0, fullgraph=True",
    expect="complete",
    role=FIXED,
    key_text=("fullgraph=True with torch.where: 3 steps, same results as eager",),
    snippet=("tensor-ops-instead-of-python-branch", "pytorch"),
)


def gate(x):
    if x.sum() > 0:
        return x * 2
    return -x


def main(rank, world_size):
    with eager_by_default():  # Dynamo's tracing is the fix; see tools/repro/comp_support.py
        compiled = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet))["compiled"]
    torch.manual_seed(rank)
    layer = nn.Linear(8, 8)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    for step in range(3):
        optimizer.zero_grad()
        h = layer(torch.randn(4, 8) + (1 if step % 2 else -1))
        out = compiled(h)
        torch.testing.assert_close(out, gate(h))
        out.pow(2).mean().backward()
        optimizer.step()
    if rank == 0:
        print("fullgraph=True with torch.where: 3 steps, same results as eager")


if __name__ == "__main__":
    launch(main, SCENARIO)
