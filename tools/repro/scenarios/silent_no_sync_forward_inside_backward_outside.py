"""no_sync() around the forward only, backward outside, WITHOUT static_graph: no error, no sync.

A seed-entry context ("a forward and its backward end up on opposite sides of
the context").  Without static_graph nothing raises: DDP decides in forward
whether the following backward all-reduces, so this backward is purely local
and the accumulated gradients differ across ranks at the optimizer step.
"""

import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, grads_match_across_ranks, launch

SCENARIO = Scenario(
    slug="ddp-silent-unsynced-backward",
    variant="no-sync-forward-inside-backward-outside",
    description="no static_graph, forward in no_sync(), backward outside; exits 0, grads differ",
    expect="complete",
    silent=True,
    key_text=("gradients differ across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    torch.manual_seed(rank)

    # Intended: "don't sync while accumulating, sync on the backward".
    # Actual: the forward decides, so nothing is ever all-reduced.
    for _micro_batch in range(2):
        with model.no_sync():
            loss = model(torch.randn(8, 4)).pow(2).mean()
        loss.backward()

    same = grads_match_across_ranks(model)
    if rank == 0:
        print(f"after accumulation: gradients {'equal' if same else 'differ'} across ranks")


if __name__ == "__main__":
    launch(main, SCENARIO)
