"""A layer used on one rank only, with find_unused_parameters=False (the default).

Rank 0's batch takes the branch through `extra`, rank 1's does not (as with a
data-dependent branch: an empty-target batch, an MoE expert, a modality tower).
Rank 1 never marks `extra`'s gradients ready, so its bucket is never
all-reduced there while rank 0 waits for it: both ranks block until the
process-group timeout.  On torch 2.13.0 the rank that skipped the branch
runs its next forward first and raises the "Expected to have finished
reduction" error there, naming only its own unused parameters, while the
other rank, still waiting in the all-reduce, loses its peer.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-rank-dependent-unused-hang",
    shows="ddp-unused-params-prior-reduction",
    variant="branch-used-on-one-rank",
    description="layer used on rank 0 only, default DDP; rank 1 raises, rank 0 loses its peer",
    expect="fail",
    key_text=("Expected to have finished reduction in the prior iteration",),
    pg_timeout_s=8.0,
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.extra = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, x, use_extra):
        h = torch.relu(self.body(x))
        if use_extra:
            h = h + self.extra(h)
        return self.head(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        use_extra = rank == 0  # the branch depends on this rank's data
        model(torch.randn(8, 4), use_extra).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
