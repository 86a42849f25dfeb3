"""DIST-006: the legacy launcher passes --local-rank=N, the script's argparse rejects it.

Run with plain ``python -m`` (the lab's "spawn" launcher), this module starts
the deprecated ``python -m torch.distributed.launch`` on itself, as older
tutorials do.  That launcher appends ``--local-rank=<N>`` to each worker's
arguments (``--local_rank`` before torch 2.0); the worker's parser only
declares its own options, so ``parse_args()`` exits with "error:
unrecognized arguments: --local-rank=0".  What is captured is the real output
of torch 2.13.0's launcher, its FutureWarning included.
"""

import argparse
import os
import subprocess
import sys

from tools.repro.harness import BROKEN, WORLD_SIZE, Scenario, started_by_torchrun

MODULE = "tools.repro.scenarios.g3_launch_local_rank_arg"

SCENARIO = Scenario(
    slug="dist-launch-local-rank-arg",
    variant="legacy-launch-passes-local-rank",
    description="broken: torch.distributed.launch passes --local-rank=N to a strict argparse",
    expect="fail",
    role=BROKEN,
    key_text=("error: unrecognized arguments: --local-rank=",),
    launchers=("spawn",),
)


def legacy_launch_command(module, *script_args):
    return [
        sys.executable,
        "-m",
        "torch.distributed.launch",
        "--nproc-per-node",
        str(WORLD_SIZE),
        "--master-addr",
        "127.0.0.1",
        "--master-port",
        os.environ["MASTER_PORT"],
        "-m",
        module,
        *script_args,
    ]


def worker_main():
    parser = argparse.ArgumentParser(prog="train.py")
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()  # exits 2 on the launcher's --local-rank=N
    print(f"epochs={args.epochs}: never reached")


if __name__ == "__main__":
    if started_by_torchrun():
        worker_main()
    else:
        sys.exit(subprocess.call(legacy_launch_command(MODULE, "--epochs", "1"), timeout=60))
