"""Reentrant checkpoint of a block whose input does not require grad (frozen embedding).

Reentrant checkpointing only builds a backward for the block if one of its tensor
inputs requires grad.  Behind a frozen embedding none does: torch warns once and
the block's parameters never get a gradient.  With find_unused_parameters=True DDP
takes them for unused parameters, so nothing fails: the block silently never trains.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="checkpoint-inputs-no-grad",
    variant="reentrant-checkpoint-frozen-input-find-unused",
    description="frozen embedding -> checkpoint(block, use_reentrant=True); block gets no grad",
    expect="complete",
    key_text=(
        "None of the inputs have requires_grad=True. Gradients will be None",
        "block.weight.grad is None after 2 steps",
    ),
)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, 8)
        self.embed.requires_grad_(False)  # frozen, as with a frozen embedding or LoRA base
        self.block = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, x, use_reentrant=True):
        h = self.embed(x)  # does not require grad
        h = checkpoint(self.block, h, use_reentrant=use_reentrant)
        return self.head(h)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for _ in range(2):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)
    state = "None" if model.module.block.weight.grad is None else "set"
    print(f"rank {rank}: block.weight.grad is {state} after 2 steps")


if __name__ == "__main__":
    launch(main, SCENARIO)
