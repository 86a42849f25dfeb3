"""COMP-004 fix: the entry's plain-PyTorch snippet compiles the model with dynamic=True; the
12 sequence lengths of comp_recompile_limit_varying_lengths then share one compiled graph, and
Dynamo never approaches the recompile limit."""

import torch
import torch.nn as nn
from torch._dynamo.utils import counters

from tools.repro.comp_support import eager_by_default
from tools.repro.harness import FIXED, Scenario, launch
from tools.repro.snippets import fix_snippet, run_snippet

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="fixed-dynamic-shapes",
    description="fix (the entry's snippet): dynamic=True over 12 sequence lengths",
    expect="complete",
    role=FIXED,
    key_text=("12 sequence lengths, 1 compiled graph",),
    snippet=("mark-dynamic", "pytorch"),
)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, x):
        return self.net(x).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    eager = Head()
    with eager_by_default():  # Dynamo's tracing is the fix; see tools/repro/comp_support.py
        model = run_snippet(fix_snippet(SCENARIO.slug, *SCENARIO.snippet), model=eager)["model"]
    optimizer = torch.optim.SGD(eager.parameters(), lr=0.01)
    for length in range(9, 21):
        optimizer.zero_grad()
        model(torch.randn(2, length, 8)).backward()
        optimizer.step()
    graphs = counters["stats"]["unique_graphs"]
    assert graphs == 1, dict(counters["stats"])
    if rank == 0:
        print(f"12 sequence lengths, {graphs} compiled graph")


if __name__ == "__main__":
    launch(main, SCENARIO)
