"""A second backward over the same graph (retain_graph=True), plain DDP: no error, wrong grads.

The first backward finishes the reduction and disarms the reducer; the hooks
of the second backward are ignored, so its gradients are accumulated locally
and never all-reduced.  Ranks silently drift apart.  The script prints what
it observes and exits 0 -- which is exactly the problem.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="second-backward-retain-graph",
    description="plain DDP, loss.backward(retain_graph=True) twice; exits 0, grads differ",
    expect="complete",
    silent=True,
    key_text=(
        "after 1st backward: gradients equal across ranks",
        "after 2nd backward: gradients differ across ranks",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    torch.manual_seed(rank)
    loss = model(torch.randn(8, 4)).pow(2).mean()

    loss.backward(retain_graph=True)
    first = grads_match_across_ranks(model)
    loss.backward()  # e.g. a second "auxiliary" backward over the same graph
    second = grads_match_across_ranks(model)

    if rank == 0:
        print(f"after 1st backward: gradients {'equal' if first else 'differ'} across ranks")
        print(f"after 2nd backward: gradients {'equal' if second else 'differ'} across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
