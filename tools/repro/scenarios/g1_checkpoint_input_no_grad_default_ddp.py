"""The same frozen-input reentrant checkpoint under default DDP (find_unused_parameters=False).

The checkpointed block's parameters never get a gradient, so DDP's reduction of
iteration 1 never completes and the second forward raises "Expected to have
finished reduction in the prior iteration", after the checkpoint's warning.
"""

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch
from tools.repro.scenarios.g1_checkpoint_input_no_grad import Net

SCENARIO = Scenario(
    slug="ddp-unused-params-prior-reduction",
    variant="reentrant-checkpoint-frozen-input",
    description="frozen input, reentrant checkpoint(block), default DDP; 2nd forward raises",
    expect="fail",
    key_text=(
        "None of the inputs have requires_grad=True. Gradients will be None",
        "RuntimeError: Expected to have finished reduction in the prior iteration "
        "before starting a new one.",
    ),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(Net())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    for step in range(2):
        model(torch.randn(8, 4)).pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"rank {rank}: step {step} done")


if __name__ == "__main__":
    launch(main, SCENARIO)
