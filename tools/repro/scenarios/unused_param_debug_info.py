"""The unused-parameter failure run with TORCH_DISTRIBUTED_DEBUG=INFO.

Same script as unused_param_no_find_unused; only the environment differs.
With INFO (or DETAIL) the error also names the parameters that got no grad.
run.py sets the variable; by hand:
    TORCH_DISTRIBUTED_DEBUG=INFO python -m tools.repro.scenarios.unused_param_debug_info

(TORCH_DISTRIBUTED_DEBUG=DETAIL was the first choice, but on torch 2.13.0
CPU it segfaults while constructing DDP -- see neg_debug_detail_segfault.)
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="unused-param-debug-info",
    description="same unused layer, run with TORCH_DISTRIBUTED_DEBUG=INFO (names the parameters)",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one.",
        "Parameters which did not receive grad for rank",
    ),
    env={"TORCH_DISTRIBUTED_DEBUG": "INFO"},
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.unused = nn.Linear(8, 8)  # e.g. a head that the current task does not use

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
