"""static_graph=True, a head used in iteration 1 and skipped from iteration 2 on.

With static_graph DDP records in iteration 1 which parameters get gradients and
from then on waits for exactly those.  When the auxiliary head stops being used,
its gradients never arrive, iteration 2's reduction never completes, and the
forward of iteration 3 refuses to start.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="static-graph-param-dropped-after-first-iteration",
    description="static_graph=True, aux head used in iteration 1 only; a later forward raises",
    expect="fail",
    key_text=(
        "RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one.",
        "one parameter is used in first iteration, but then got unused in the second iteration",
        "rank 0: step 1 done",
    ),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.aux = nn.Linear(8, 1)  # e.g. a warm-up loss only used at the start

    def forward(self, x, use_aux):
        h = torch.relu(self.body(x))
        out = self.head(h)
        if use_aux:
            out = out + self.aux(h)
        return out


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        model(torch.randn(8, 4), use_aux=step == 0).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
