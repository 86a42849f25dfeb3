"""DIST-008: a worker dies without a Python traceback; torchrun prints only its summary.

Rank 1 ends itself with ``os._exit(3)`` after the process group is up (as a
native library calling exit(), or an abrupt kill, would).  Rank 0 is busy
outside any collective (sleeping, standing for a long data-loading step), so
it has nothing to report either.  There is no exception to print, so the only
report is torchrun's ChildFailedError summary: rank 1 as the root cause with
exitcode 3, and rank 0, stopped by the launcher, with SIGTERM.
"""

import os
import time

from tools.repro.harness import BROKEN, Scenario, launch

SCENARIO = Scenario(
    slug="torchrun-child-failed",
    variant="worker-exits-without-traceback",
    description="broken: rank 1 calls os._exit(3); only the ChildFailedError summary is printed",
    expect="fail",
    role=BROKEN,
    key_text=(
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
        "exitcode  : 3",
        "Signal 15 (SIGTERM) received by PID",
    ),
    launchers=("torchrun",),
)


def main(rank, world_size):
    if rank == 1:
        os._exit(3)  # no exception, no traceback: the process is simply gone
    time.sleep(60)  # rank 0: busy elsewhere until torchrun stops it


if __name__ == "__main__":
    launch(main, SCENARIO)
