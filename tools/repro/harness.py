"""Launcher plumbing shared by every scenario.

A scenario module is a small, plain training script.  It declares a
``SCENARIO`` (what it reproduces and what a run should look like) and a
per-rank ``main(rank, world_size)``, and ends with::

    if __name__ == "__main__":
        launch(main, SCENARIO)

The same file then works under both launchers, from the repository root:

    python -m tools.repro.scenarios.<module>              # torch.multiprocessing.spawn
    torchrun --nproc-per-node 2 --master-addr 127.0.0.1 \\
        --master-port 29500 -m tools.repro.scenarios.<module>

Everything runs on CPU with the gloo backend, 2 processes, on 127.0.0.1.
This module only imports torch inside functions, so ``run.py --list`` and the
scenario registry stay cheap to import.
"""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass, field
from datetime import timedelta

WORLD_SIZE = 2

# Roles: what a run of the scenario demonstrates.
BROKEN = "broken"  # shows the failure (a crash, or a silent desync it prints)
FIXED = "fixed"  # applies a fix; must complete cleanly
NO_REPRO = "no-repro"  # a context that was expected NOT to reproduce; completes
NEGATIVE = "negative"  # a failure outside the knowledge base (corpus/_negative)

NEGATIVE_SLUG = "_negative"
SILENT_DIR = "_silent"


@dataclass(frozen=True)
class Scenario:
    slug: str  # knowledge-base entry the output belongs to (or "_negative")
    variant: str  # file name stem inside tests/corpus/<slug>/
    description: str  # one line
    expect: str  # "fail" (non-zero exit) or "complete" (exit 0)
    role: str = BROKEN
    # Text that must appear in the output of a correct run (checked verbatim).
    key_text: tuple[str, ...] = ()
    # Extra environment variables for the run (e.g. TORCH_DISTRIBUTED_DEBUG).
    env: dict[str, str] = field(default_factory=dict)
    # gloo / process-group timeout; short so deliberate hangs surface quickly.
    pg_timeout_s: float = 30.0
    launchers: tuple[str, ...] = ("spawn", "torchrun")
    # A failure that prints nothing of its own (wrong gradients, no error): its capture goes to
    # tests/corpus/_silent/, which no entry is expected to match.
    silent: bool = False
    # The corpus folder when the output is what another entry describes (a desync that ends in
    # a plain collective timeout shows the timeout's entry, not its cause's).
    shows: str = ""
    # A fixed run that executes the entry's own snippet (tools/repro/snippets.py): the fix's key
    # and the framework, e.g. ("init-once", "pytorch").
    snippet: tuple[str, ...] = ()
    # Real processes even where the lab forks them from one that imported torch
    # (tools/repro/forkserver.py): a memory cgroup would charge the fork for the server's pages.
    fresh_processes: bool = False
    # What that server imports besides torch: a framework costs each process seconds of CPU.
    preload: tuple[str, ...] = ()
    module: str = ""  # filled in by the registry

    def __post_init__(self):
        if self.expect not in ("fail", "complete"):
            raise ValueError(f"expect must be 'fail' or 'complete', not {self.expect!r}")
        if self.role not in (BROKEN, FIXED, NO_REPRO, NEGATIVE):
            raise ValueError(f"unknown role {self.role!r}")

    @property
    def captured(self) -> bool:
        """Only runs that show a failure go into the regression corpus."""
        return self.role in (BROKEN, NEGATIVE)

    @property
    def corpus_folder(self) -> str:
        """Where its capture goes: the folder names the entry the output must match."""
        return SILENT_DIR if self.silent else self.shows or self.slug

    @property
    def name(self) -> str:
        return f"{self.slug}/{self.variant}"


def free_port() -> int:
    """A currently free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def started_by_torchrun() -> bool:
    return "TORCHELASTIC_RUN_ID" in os.environ or "LOCAL_RANK" in os.environ


def launch(main, scenario: Scenario) -> None:
    """Run ``main(rank, world_size)`` on 2 CPU processes with gloo.

    Under torchrun every worker is already a separate process and finds its
    rank in the environment; otherwise we start the workers ourselves with
    ``torch.multiprocessing.spawn``.
    """
    if started_by_torchrun():
        rank = int(os.environ["RANK"])
        world_size = int(os.environ["WORLD_SIZE"])
        _run_rank(rank, main, world_size, scenario.pg_timeout_s)
        return

    import torch.multiprocessing as mp

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(free_port()))
    mp.spawn(_run_rank, args=(main, WORLD_SIZE, scenario.pg_timeout_s), nprocs=WORLD_SIZE)


def _run_rank(rank: int, main, world_size: int, pg_timeout_s: float) -> None:
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo",
        rank=rank,
        world_size=world_size,
        timeout=timedelta(seconds=pg_timeout_s),
    )
    main(rank, world_size)
    # Like most training scripts, we only tear down on the success path.  The
    # barrier keeps one rank from tearing down gloo while the other is still
    # using it (without it, a spawn run that had completed its work aborted
    # once with "terminate called without an active exception" / SIGABRT).
    # A fix's snippet may have torn the group down itself.
    if dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()
    exit_worker()


def launch_without_group(main, scenario: Scenario, ranks_in_env: bool = True) -> None:
    """Run ``main(rank, world_size)`` on 2 CPU processes as ``launch`` does, but without
    creating the process group: for a fix whose own code (the entry's snippet) creates it.

    Under torchrun the workers find their ranks in the environment; started otherwise, the
    spawned workers are given RANK, LOCAL_RANK and WORLD_SIZE as torchrun gives them, unless
    ``ranks_in_env`` is False (a script started with plain ``python`` has none).
    """
    if started_by_torchrun():
        rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        _run_without_group(rank, main, world_size, False)
        return

    import torch.multiprocessing as mp

    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(free_port()))
    mp.spawn(_run_without_group, args=(main, WORLD_SIZE, ranks_in_env), nprocs=WORLD_SIZE)


def _run_without_group(rank: int, main, world_size: int, ranks_in_env: bool) -> None:
    if ranks_in_env:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world_size))
    main(rank, world_size)
    exit_worker()


def exit_worker() -> None:
    """End a worker whose work is done and checked without the interpreter's shutdown.

    About one clean run in a few hundred aborted while the interpreter shut down (C++
    destructors meeting a live gloo thread), turning a scenario that completed into a failed
    lab test; and a DDP model freed after its group was destroyed deadlocked now and then on
    torch 2.13.0 (~ProcessGroupGloo, holding the GIL, joins gloo's thread, which waits for the
    GIL to free a finished collective's tensors).
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def check_every_optimizer_step(module) -> list:
    """For a snippet that builds its own optimizer: after each step of any optimizer, assert
    that the module's gradients are equal across ranks. Returns the list the steps are counted
    in."""
    from torch.optim.optimizer import register_optimizer_step_post_hook

    steps = []

    def check(optimizer, args, kwargs):
        assert grads_match_across_ranks(module), f"step {len(steps)}: gradients differ"
        steps.append(optimizer)

    register_optimizer_step_post_hook(check)
    return steps


def check_each_step(optimizer, module) -> list:
    """Make each of the optimizer's steps first assert that the module's gradients are equal
    across ranks (DDP wraps the module's own parameters, so theirs are the synchronised ones).
    Returns the list the steps are counted in."""
    step, steps = optimizer.step, []

    def checked_step(*args, **kwargs):
        assert grads_match_across_ranks(module), f"step {len(steps)}: gradients differ"
        steps.append(True)
        return step(*args, **kwargs)

    optimizer.step = checked_step
    return steps


def grads_match_across_ranks(model) -> bool:
    """all_gather every parameter's .grad and compare them across ranks."""
    import torch
    import torch.distributed as dist

    local = torch.cat(
        [p.grad.detach().reshape(-1) for p in model.parameters() if p.grad is not None]
    )
    gathered = [torch.empty_like(local) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, local)
    return all(torch.allclose(gathered[0], g) for g in gathered[1:])
