"""What the network family's scenarios (scenarios/net_*.py) share: starting torchrun agents the
way a multi-node job does, each agent standing for one node of the job, all on 127.0.0.1.

A rank that dies under a single launcher is no use for these failures: torchrun's agent (and
torch.multiprocessing.spawn) terminates the surviving ranks within a fraction of a second, before
they can report the broken connection. Across nodes nobody does that, so the survivors print what
users paste. These helpers start one agent per node; the scenario module is run with plain
``python -m`` (the lab's "spawn" launcher) and its output is the output of the node it shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tools.repro.harness import free_port

RUN_TIMEOUT_S = 60


def torchrun_executable() -> str:
    candidate = Path(sys.executable).with_name("torchrun")
    return str(candidate) if candidate.exists() else "torchrun"


def agent_env() -> dict[str, str]:
    """The environment of a fresh node: the lab's MASTER_ADDR/MASTER_PORT removed, so that only
    the command line says where the rendezvous is."""
    return {k: v for k, v in os.environ.items() if k not in ("MASTER_ADDR", "MASTER_PORT")}


def static_node(node_rank: int, nnodes: int, port: int, module: str) -> list[str]:
    """torchrun for one node of a static rendezvous (--master-addr/--master-port), 1 worker."""
    return [
        torchrun_executable(),
        "--nnodes",
        str(nnodes),
        "--node-rank",
        str(node_rank),
        "--nproc-per-node",
        "1",
        "--master-addr",
        "127.0.0.1",
        "--master-port",
        str(port),
        "-m",
        module,
    ]


def c10d_node(endpoint: str, nnodes: str, module: str, *extra: str, nproc: int = 1) -> list[str]:
    """torchrun for one node of a c10d rendezvous at ``endpoint``; ``extra`` are more flags
    (``--rdzv-conf ...``) placed before the module."""
    return [
        torchrun_executable(),
        "--nnodes",
        nnodes,
        "--nproc-per-node",
        str(nproc),
        "--rdzv-backend",
        "c10d",
        "--rdzv-endpoint",
        endpoint,
        *extra,
        "-m",
        module,
    ]


def run_nodes(shown: list[str], others: list[list[str]]) -> int:
    """Start the ``others`` nodes in the background (their output discarded, as a user pastes
    one node's log), then the ``shown`` node in the foreground; return the shown node's exit
    status once every node has ended."""
    env = agent_env()
    background = [
        subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for command in others
    ]
    try:
        returncode = subprocess.call(shown, env=env, timeout=RUN_TIMEOUT_S)
    finally:
        for proc in background:
            try:
                proc.wait(timeout=RUN_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
    return returncode


def unused_port() -> int:
    """A port nobody serves (free when asked; nothing here binds it)."""
    return free_port()
