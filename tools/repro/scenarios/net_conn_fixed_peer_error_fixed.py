"""NET fix for a connection closed by a crashed peer: find the first failure and fix it.

The same two-node job as net_conn_closed_peer_node_crashed, with the crashed rank's own error
(its wrong-width batch) fixed: every worker runs the entry's plain-PyTorch snippet, a training
loop under torchelastic's ``@record`` (which puts each failed rank's own traceback in the
launcher's summary, so the first failure is the one reported). Both nodes train 3 steps with
equal gradients. Run with plain ``python -m`` (the lab's "spawn" launcher); the workers are
this module under the two torchrun agents.
"""

import os
import sys

from tools.repro.harness import (
    FIXED,
    Scenario,
    launch,
    started_by_torchrun,
)
from tools.repro.net_support import run_nodes, static_node
from tools.repro.snippets import run_fix_on_linear_model

SCENARIO = Scenario(
    slug="dist-connection-reset-by-peer",
    variant="fixed-peer-error-fixed",
    description="fix (the entry's snippet): the crashed rank's error fixed, @record loop, 2 nodes",
    expect="complete",
    role=FIXED,
    key_text=("gradients equal across ranks",),
    launchers=("spawn",),
    snippet=("fix-the-first-failure", "pytorch"),
)
MODULE = "tools.repro.scenarios.net_conn_fixed_peer_error_fixed"


def main(rank, world_size):
    # The same batch width on every rank now (the crashed rank had another).
    model, names, steps = run_fix_on_linear_model(SCENARIO, rank)
    assert names["model"].module is model
    assert len(steps) == 3, steps
    print(f"rank {rank}: 3 steps done, gradients equal across ranks")


if __name__ == "__main__":
    if started_by_torchrun():
        launch(main, SCENARIO)
    else:
        port = int(os.environ["MASTER_PORT"])
        sys.exit(run_nodes(static_node(0, 2, port, MODULE), [static_node(1, 2, port, MODULE)]))
