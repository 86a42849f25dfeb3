"""Host-memory limits for the memory family's scenarios (mem_*.py): real out-of-memory failures
on a CPU machine, bounded so that they cost the machine nothing.

Two kinds of limit, as users meet them:

- ``limit_address_space(headroom)``: RLIMIT_AS on this process, a little above what it maps now.
  An allocation past it fails inside malloc, so PyTorch raises its own host out-of-memory error
  (``DefaultCPUAllocator: can't allocate memory``), as on a machine without overcommit or under
  ``ulimit -v``.
- ``join_memory_cgroup(limit)``: a memory cgroup of its own (cgroup v1, as this machine has)
  holding only this process, with a limit on the memory it charges from now on. Past it the
  kernel's out-of-memory killer ends the process with SIGKILL, as it does when a host or a
  container runs out of RAM: no Python code runs, so the launcher's report is all that is left.
  ``prefer_this_process_when_out_of_memory()`` keeps a scaled-down lab from changing which
  process the killer picks.

The scenarios also share a scratch folder for the checkpoint or data they load.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import resource
import tempfile
import time
from pathlib import Path

MIB = 1 << 20
CGROUP_ROOT = Path("/sys/fs/cgroup/memory")
LAB_CGROUP = CGROUP_ROOT / "faultline-lab"
SCRATCH = Path(tempfile.gettempdir()) / "faultline-lab-memory"
CGROUP_LOCK = Path(tempfile.gettempdir()) / "faultline-lab-cgroups.lock"
STALE_S = 600


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def mapped_bytes() -> int:
    """The process's virtual size now (VmSize): what RLIMIT_AS is compared with."""
    return _status_kib("VmSize") * 1024


def resident_bytes() -> int:
    return _status_kib("VmRSS") * 1024


def limit_address_space(headroom: int) -> int:
    """Let this process map at most `headroom` bytes more than it maps now; returns the limit."""
    limit = mapped_bytes() + headroom
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    return limit


def memory_cgroup_available() -> bool:
    """Whether this machine lets the lab make memory cgroups (cgroup v1, writable: root)."""
    if not (CGROUP_ROOT / "memory.limit_in_bytes").exists():
        return False
    try:
        LAB_CGROUP.mkdir(exist_ok=True)
    except OSError:
        return False
    return os.access(LAB_CGROUP, os.W_OK)


def join_memory_cgroup(limit: int) -> Path:
    """Move this process into a memory cgroup of its own that lets it charge at most `limit`
    more bytes (what it charged before it joined stays with its old cgroup). Returns the
    cgroup's folder; the next call removes the empty ones runs leave behind.

    A cgroup is empty between its mkdir and the write that moves the process in, so another
    rank's (or test worker's) sweep could remove it there (ENODEV, as on CI): sweeping and
    joining happen under one lock shared by every process on the machine."""
    with _cgroups_locked():
        remove_stale_cgroups()
        LAB_CGROUP.mkdir(exist_ok=True)
        group = LAB_CGROUP / f"pid-{os.getpid()}"
        group.mkdir(exist_ok=True)
        (group / "memory.limit_in_bytes").write_text(str(limit))
        (group / "cgroup.procs").write_text(str(os.getpid()))
    return group


@contextlib.contextmanager
def _cgroups_locked():
    with CGROUP_LOCK.open("a") as lock:  # closing it releases the lock
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def prefer_this_process_when_out_of_memory() -> None:
    """Make this process the out-of-memory killer's first choice in its cgroup.

    The killer ends the process with the largest resident set. A user's caching worker is that
    process by gigabytes; the lab's cache is scaled down to 256 MiB, while the rank beside it
    holds some 450 MiB of imported libraries, so the two score within a point of each other and
    the kernel may kill the rank instead (as it did on CI for the Trainer). Raising one's own
    oom_score_adj needs no privilege."""
    Path("/proc/self/oom_score_adj").write_text("500")


def remove_stale_cgroups() -> None:
    """rmdir every lab cgroup no process is in (a killed worker cannot remove its own)."""
    if not LAB_CGROUP.is_dir():
        return
    for group in LAB_CGROUP.iterdir():
        if group.is_dir():
            with contextlib.suppress(OSError):
                if not (group / "cgroup.procs").read_text().strip():
                    group.rmdir()


def scratch_file(name: str) -> Path:
    """A path in the lab's scratch folder, unique to this run (the master port is), after
    removing what runs older than ten minutes left there."""
    SCRATCH.mkdir(exist_ok=True)
    now = time.time()
    for old in SCRATCH.iterdir():
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_S:
                old.unlink()
    return SCRATCH / f"{os.environ.get('MASTER_PORT', os.getpid())}-{name}"
