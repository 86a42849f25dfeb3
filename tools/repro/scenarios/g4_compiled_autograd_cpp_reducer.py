"""torch.compile with compiled autograd on a DDP model that still uses the C++ reducer.

Compiled autograd traces the backward into a graph; the C++ reducer's hooks
cannot run inside it (before PR #152735 they silently skipped the all-reduce),
so the reducer refuses.  The backend is aot_eager: no C++ toolchain needed.
"""

import torch
import torch._dynamo
import torch.nn as nn
from torch._dynamo import compiled_autograd
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import Scenario, launch

SCENARIO = Scenario(
    slug="ddp-torch-compile",
    variant="compiled-autograd-with-cpp-reducer",
    description="DDP + compiled autograd with the default optimize_ddp; backward raises",
    expect="fail",
    key_text=("Compiled autograd is not compatible with C++ DDP Reducer",),
)


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
    compiled = torch.compile(model, backend="aot_eager")
    torch.manual_seed(rank)
    loss = compiled(torch.randn(8, 4)).pow(2).mean()
    with compiled_autograd._enable(torch.compile(backend="aot_eager")):
        loss.backward()


if __name__ == "__main__":
    launch(main, SCENARIO)
