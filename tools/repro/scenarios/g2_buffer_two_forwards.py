"""Two forwards through one DDP module before one backward, with a buffer used in forward.

Before each forward DDP broadcasts the module's buffers from rank 0 (broadcast_buffers=True,
the default), writing them in place.  The first forward saved the buffer for backward, so on
releases without pytorch/pytorch#175851 the backward finds it modified (GAN discriminator
pattern: D(real), D(fake), one backward).
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import NO_REPRO, Scenario, launch

SCENARIO = Scenario(
    slug="ddp-buffer-broadcast-inplace",
    variant="buffer-two-forwards-one-backward",
    description="buffer used in forward, two forwards then one backward; on 2.13.0 completes",
    expect="complete",
    role=NO_REPRO,
    key_text=("2 steps done",),
)


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("scale", torch.ones(4))

    def forward(self, x):
        return self.lin(x) * self.scale


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Scaled())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _step in range(2):
        real, fake = model(torch.randn(8, 4)), model(torch.randn(8, 4))
        (real.sum() - fake.sum()).backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"rank {rank}: 2 steps done", flush=True)


if __name__ == "__main__":
    launch(main, SCENARIO)
