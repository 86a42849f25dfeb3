"""NET: a rank on another node crashes mid-training; the survivors' collective loses its peer.

Two torchrun agents stand for two nodes of one job (static rendezvous on 127.0.0.1, one worker
each). On node 1 the second batch has the wrong width, so its forward raises a shape error and
the process exits; node 0's rank is in the backward all-reduce of the same step and gloo reports
"Connection closed by peer ... This is typically caused by a remote worker crashing". What is
captured is node 0's output alone, as the user of node 0 sees it: the real error is only in node
1's log. (Under one launcher the agent terminates the survivors before they print anything, so
this needs two.) Run with plain ``python -m`` (the lab's "spawn" launcher).
"""

import os
import sys

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from tools.repro.harness import BROKEN, Scenario, launch, started_by_torchrun
from tools.repro.models import LinearLoss
from tools.repro.net_support import run_nodes, static_node

SCENARIO = Scenario(
    slug="dist-connection-reset-by-peer",
    variant="peer-node-crashed",
    description="broken: node 1's rank dies of its own error; node 0's all-reduce loses its peer",
    expect="fail",
    role=BROKEN,
    key_text=(
        "Connection closed by peer",
        "This is typically caused by a remote worker crashing.",
    ),
    launchers=("spawn",),
)
MODULE = "tools.repro.scenarios.net_conn_closed_peer_node_crashed"


def main(rank, world_size):
    torch.manual_seed(0)
    model = DDP(LinearLoss())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)
    batches = [torch.randn(8, 4), torch.randn(8, 4 if rank == 0 else 5), torch.randn(8, 4)]
    for batch in batches:
        optimizer.zero_grad()
        loss = model(batch)  # rank 1, second batch: mat1 and mat2 shapes cannot be multiplied
        loss.backward()  # rank 0 waits here for rank 1's gradients
        optimizer.step()


if __name__ == "__main__":
    if started_by_torchrun():
        launch(main, SCENARIO)
    else:
        port = int(os.environ["MASTER_PORT"])
        sys.exit(run_nodes(static_node(0, 2, port, MODULE), [static_node(1, 2, port, MODULE)]))
