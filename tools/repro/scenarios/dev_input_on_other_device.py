"""DEV-001: a model moved to one device, its batch left on another.

The lab has no GPU, so the meta device stands in for cuda:0: the model goes to "meta" and the
batch stays on the CPU, and the Linear's device check refuses the pair ("Tensor on device meta
is not on the expected device cpu!"), on every rank, in the first forward. On a GPU the same code
says "Expected all tensors to be on the same device, ... cuda:0 and cpu".
"""

import torch
import torch.nn as nn

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="tensors-on-different-devices",
    variant="model-moved-batch-not",
    description="broken: model.to('meta'), the batch on the CPU (meta stands in for a GPU)",
    expect="fail",
    role=BROKEN,
    key_text=("RuntimeError: Tensor on device meta is not on the expected device cpu!",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = nn.Linear(4, 1).to("meta")
    batch = torch.randn(8, 4)  # never moved
    model(batch).sum().backward()
    print(f"rank {rank}: never reached")


if __name__ == "__main__":
    launch(main, SCENARIO)
