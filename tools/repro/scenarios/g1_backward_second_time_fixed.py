"""The fix for a second backward over a freed graph: sum the losses into one backward.

Same model as g1_backward_second_time.  One backward needs the saved tensors only
once and lets DDP all-reduce every gradient; gradients are compared across ranks.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import FIXED, Scenario, grads_match_across_ranks, launch
from tools.repro.scenarios.g1_backward_second_time import TwoHeads

SCENARIO = Scenario(
    slug="autograd-backward-second-time",
    variant="fixed-sum-losses-one-backward",
    description="loss_a + loss_b in one backward over the shared trunk; grads equal",
    expect="complete",
    role=FIXED,
    key_text=("rank 0: step 1 done, gradients equal across ranks",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(TwoHeads())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        optimizer.zero_grad()
        out_a, out_b = model(torch.randn(8, 4))
        loss = out_a.pow(2).mean() + out_b.pow(2).mean()  # one backward for both losses
        loss.backward()
        same = grads_match_across_ranks(model)
        optimizer.step()
        print(
            f"rank {rank}: step {step} done, gradients {'equal' if same else 'differ'} across ranks"
        )
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    launch(main, SCENARIO)
