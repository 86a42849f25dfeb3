"""The fix for a graph that changes after iteration 1: no static_graph, find_unused_parameters=True.

Same model and loop as g1_static_graph_param_dropped.  Without static_graph DDP
searches each iteration's graph for the parameters that will get no gradient,
so the aux head can stop being used.  Gradients are compared across ranks.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.scenarios.g1_static_graph_param_dropped import Net

SCENARIO = Scenario(
    slug="ddp-static-graph-prior-reduction",
    variant="fixed-find-unused-parameters-instead-of-static-graph",
    description="aux head used in iteration 1 only, find_unused_parameters=True, no static_graph",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 3 done, gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(4):
        model(torch.randn(8, 4), use_aux=step == 0).pow(2).mean().backward()
        same = grads_match_across_ranks(model)
        optimizer.step()
        optimizer.zero_grad()
        print(
            f"rank {rank}: step {step} done, gradients {'equal' if same else 'differ'} across ranks"
        )
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    launch(main, SCENARIO)
