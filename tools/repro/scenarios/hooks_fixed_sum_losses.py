"""Fix: sum the losses of one forward into ONE backward (static_graph=True kept).

The historic form of the assert (torch 2.0, pytorch#106953) came from
loss1.backward(retain_graph=True); loss2.backward() on a static_graph model.
One backward per forward restores the reducer's one-backward contract.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-expect-autograd-hooks-assert",
    variant="fixed-sum-losses",
    description="fix: static_graph=True, two heads, (loss_a + loss_b).backward(); grads equal",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.head_a(h), self.head_b(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads(), static_graph=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(3):
        out_a, out_b = model(torch.randn(8, 4))
        loss = out_a.pow(2).mean() + out_b.abs().mean()
        loss.backward()
        assert grads_match_across_ranks(model), f"step {step}: gradients differ across ranks"
        optimizer.step()
        optimizer.zero_grad()
    if rank == 0:
        print("3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
