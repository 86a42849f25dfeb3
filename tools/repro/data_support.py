"""What the data-pipeline family's scenarios (data_*.py) share: the limits a DataLoader meets on
users' machines, set for one rank only, and running a snippet as the script or module a user
would have it in.

- ``private_shm(size)``: a mount namespace of this process's own (unshare(CLONE_NEWNS), mounts
  made private first so nothing propagates back) with a tmpfs of ``size`` bytes over /dev/shm,
  as a container's small /dev/shm. Needs root (CAP_SYS_ADMIN); ``shm_namespace_available()``
  says whether this machine allows it. The DataLoader's workers, forked from this process,
  share the namespace.
- ``limit_open_files(headroom)``: RLIMIT_NOFILE (soft and hard) at the files open now plus
  ``headroom``, as a low ``ulimit -n``.
- ``run_as_main(code, header)`` and ``import_as_module(code, header)``: write ``header`` and
  ``code`` to a file and run it as ``__main__`` (runpy) or import it as a module, so that the
  spawn start method finds its functions by name, as it does in a user's script.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib
import os
import resource
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

MIB = 1 << 20
CLONE_NEWNS = 0x00020000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18


def _libc():
    return ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def private_shm(size: int) -> None:
    """Give this process (and the processes it starts) a tmpfs of `size` bytes on /dev/shm."""
    libc = _libc()
    _check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    options = f"size={size},mode=1777".encode()
    _check(libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs", 0, options), "mount tmpfs /dev/shm")


def shm_namespace_available() -> bool:
    """Whether this machine lets a process mount its own /dev/shm (tried in a child, with
    unshare(1), so the test process itself is untouched)."""
    if os.geteuid() != 0:
        return False
    try:
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /dev/shm"],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def limit_open_files(headroom: int) -> int:
    """Let this process open at most `headroom` more files than it has open now."""
    limit = open_files() + headroom
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return limit


def _write(code: str, header: str, stem: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="faultline-lab-data-"))
    path = folder / f"{stem}.py"
    path.write_text(f"{header.strip()}\n\n{code}\n")
    return path


def run_as_main(code: str, header: str = "", **names) -> dict:
    """Run `header` + `code` as the main script (``__name__ == "__main__"``, its file as
    ``__file__``), with `names` defined in it; spawn-started processes import that file again
    as ``__mp_main__``, without `names`."""
    path = _write(code, header, "train")
    return runpy.run_path(str(path), init_globals=names, run_name="__main__")


def import_as_module(code: str, header: str = "", stem: str = "user_loader"):
    """Import `header` + `code` as a module of its own (its folder put on sys.path, which
    spawn-started processes inherit), so its functions pickle by name."""
    path = _write(code, header, stem)
    sys.path.insert(0, str(path.parent))
    return importlib.import_module(stem)
