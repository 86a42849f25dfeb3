"""COMP-004: a compiled training step with dynamic=False sees 12 sequence lengths; Dynamo
compiles it again for each new length (a guard on the input's size fails) until it reaches
torch._dynamo.config.recompile_limit (8), logs "torch._dynamo hit config.recompile_limit (8)"
and runs the step in eager mode from then on: training goes on, without compilation. The same
loop compiled with fullgraph=True then raises FailOnRecompileLimitHit.

The eager backend keeps the twelve compilations fast; Dynamo's guards and its limit do not
depend on the backend.
"""

import torch
import torch.nn as nn

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="dynamo-recompile-limit",
    variant="varying-lengths-dynamic-false",
    description="torch.compile(dynamic=False) over 12 lengths: warning, then fullgraph error",
    expect="fail",
    key_text=(
        "torch._dynamo hit config.recompile_limit (8)",
        "size mismatch at index 1",
        "torch._dynamo.exc.FailOnRecompileLimitHit: Hard failure due to fullgraph=True",
    ),
)


def train(model, step, lengths):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for length in lengths:
        optimizer.zero_grad()
        step(model, torch.randn(2, length, 8)).backward()
        optimizer.step()


def loss_of(model, x):
    return model(x).pow(2).mean()


def main(rank, world_size):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    lengths = range(9, 21)
    train(model, torch.compile(loss_of, backend="eager", dynamic=False), lengths)
    if rank == 0:
        print("12 lengths trained; the step runs in eager mode after the 8th compilation")
    torch._dynamo.reset()
    train(model, torch.compile(loss_of, backend="eager", dynamic=False, fullgraph=True), lengths)


if __name__ == "__main__":
    launch(main, SCENARIO)
