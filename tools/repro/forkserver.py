"""A fork server for the lab: one process that has imported torch forks every launcher and rank.

A scenario under torchrun is three Python processes (the launcher and two ranks), and each spends
about 4 s of CPU on the 2-core machine importing torch before it does anything: most of what the
lab costs. The server imports torch once; each process of a run is then a fork of it that takes
the run's terminal, environment and arguments and runs what `python -u -m <module>` or `torchrun`
would have run, under the same `runpy` calls, so tracebacks print the same frames. Anything else
it is asked to start is exec'd for real.

What a fork cannot reproduce is an environment variable read while torch is imported
(`TORCH_LOGS`, for one), nor a memory cgroup's charge (a fork's first write to a page it shares
with the server charges the whole page to the fork's cgroup): `run_scenario` sends a scenario
that sets variables of its own, or says `fresh_processes`, to real processes, and `--write`
always captures with real processes.

`ForkServer` starts it and stops it; it prints "ready" once torch is imported.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib
import io
import json
import os
import runpy
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

_HEADER = struct.Struct("!I")
_MAX_FDS = 3


def _send(sock: socket.socket, message: dict, fds: list[int] = ()) -> None:
    data = json.dumps(message).encode()
    payload = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(sock, [payload], list(fds))
    else:
        sock.sendall(payload)


def _receive(sock: socket.socket) -> tuple[dict | None, list[int]]:
    """One message and the descriptors that came with it; (None, []) when the peer has gone."""
    data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 16, _MAX_FDS)
    if not data:
        return None, fds
    while len(data) < _HEADER.size or len(data) < _HEADER.size + _HEADER.unpack_from(data)[0]:
        more = sock.recv(1 << 16)
        if not more:
            return None, fds
        data += more
    (length,) = _HEADER.unpack_from(data)
    return json.loads(data[_HEADER.size : _HEADER.size + length]), fds


class Child:
    """A process the server forked, seen through the few parts of `subprocess.Popen` that
    `run_scenario` and torchrun's agent use (pid, poll, wait, signals)."""

    def __init__(self, path: str, argv: list[str], env: dict[str, str], cwd: str, fds: list[int]):
        self.args = argv
        self.returncode: int | None = None
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(path)
        _send(self._sock, {"argv": argv, "env": env, "cwd": cwd}, fds)
        reply, _ = _receive(self._sock)
        if reply is None or "pid" not in reply:
            raise OSError(f"the lab's fork server did not start {argv[0]}: {reply}")
        self.pid: int = reply["pid"]

    def poll(self) -> int | None:
        self._exited_by(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._exited_by(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def _exited_by(self, timeout: float | None) -> bool:
        if self.returncode is None and select.select([self._sock], [], [], timeout)[0]:
            reply, _ = _receive(self._sock)
            self.returncode = reply["exit"] if reply else -signal.SIGKILL
            self._sock.close()
        return self.returncode is not None

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The server as its client sees it: started once, then `spawn` for each process of a run."""

    def __init__(self, env: dict[str, str], cwd: Path, python: str = sys.executable, preload=()):
        self.cwd = str(cwd)
        self._dir = tempfile.mkdtemp(prefix="faultline-lab-")
        self.path = os.path.join(self._dir, "forkserver.sock")
        self._proc = subprocess.Popen(
            # -c rather than -m: a fork's __main__ must not hold this module's functions.
            [
                python,
                "-c",
                "import sys, tools.repro.forkserver as f; f.serve(*sys.argv[1:])",
                self.path,
                *preload,
            ],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,  # its end closing tells the server to stop
            stdout=subprocess.PIPE,
        )
        if self._proc.stdout.readline().strip() != b"ready":
            raise OSError(f"the lab's fork server did not start (exit {self._proc.wait()})")
        atexit.register(self.stop)

    def spawn(self, argv: list[str], env: dict[str, str], fds: list[int], cwd=None) -> Child:
        """Start argv as its own session with fds as its stdin, stdout and stderr."""
        return Child(self.path, argv, env, str(cwd or self.cwd), fds)

    def kill_strays(self) -> None:
        """Kill every process of the last run still alive (ranks whose launcher was killed)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(self.path)
            _send(sock, {"kill": True})
            _receive(sock)

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
            os.rmdir(self._dir)


# --- the server -------------------------------------------------------------------------------


def serve(path: str, *preload: str) -> None:
    # The point of the server: every fork starts with these imported. DistributedDataParallel
    # imports Dynamo (and sympy) as it is built, another 2.5 s of CPU in each rank.
    import torch  # noqa: F401
    import torch._dynamo  # noqa: F401
    import torch.distributed.algorithms.ddp_comm_hooks  # noqa: F401
    import torch.distributed.run  # noqa: F401
    import torch.nn.parallel  # noqa: F401

    for module in preload:
        importlib.import_module(module)

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    print("ready", flush=True)

    # A child that has exited stays a zombie until its client has read the exit code and hung
    # up, as a Popen child does until it is polled: torchrun signals its ranks' process groups
    # up to the moment it has seen them exit, and a reaped pid would be "No such process".
    children: dict[int, socket.socket] = {}
    exited: set[int] = set()
    own = [listener.fileno(), wake_r, wake_w, 0]
    while True:
        hung_up = {children[pid]: pid for pid in exited}
        ready, _, _ = select.select([listener, wake_r, sys.stdin, *hung_up], [], [], 1.0)
        if sys.stdin in ready and not os.read(0, 1):
            break
        if wake_r in ready:
            os.read(wake_r, 4096)
        for conn in set(ready) & set(hung_up):
            os.waitpid(hung_up[conn], 0)
            exited.discard(hung_up[conn])
            del children[hung_up[conn]]
            conn.close()
        if listener in ready:
            conn, _ = listener.accept()
            message, fds = _receive(conn)
            if message is None:
                conn.close()
            elif message.get("kill"):
                for pid in set(children) - exited:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                _send(conn, {"killed": len(children)})
                conn.close()
            else:
                pid = os.fork()
                if pid == 0:
                    _become(
                        message,
                        fds,
                        [*own, conn.fileno(), *(c.fileno() for c in children.values())],
                        path,
                    )
                for fd in fds:
                    os.close(fd)
                children[pid] = conn
                _send(conn, {"pid": pid})
        for pid in set(children) - exited:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None:
                exited.add(pid)
                code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
                with contextlib.suppress(OSError):
                    _send(children[pid], {"exit": code})
    for pid in set(children) - exited:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _become(message: dict, fds: list[int], inherited: list[int], path: str) -> None:
    """In the fork: take the run's session, terminal, directory and environment, then run."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in {*fds, *inherited} - {0, 1, 2}:
            with contextlib.suppress(OSError):
                os.close(fd)
        os.chdir(message["cwd"])
        os.environ.clear()
        os.environ.update(message["env"])
        _unbuffered_stdio()
        code = _run(message["argv"], path)
    finally:
        os._exit(code)


def _unbuffered_stdio() -> None:
    """Standard streams on the new descriptors, as `python -u` makes them."""
    sys.stdin = sys.__stdin__ = open(0, closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False), encoding="utf-8", write_through=True
    )
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        write_through=True,
    )


def _run(argv: list[str], path: str) -> int:
    program, args = argv[0], argv[1:]
    main = sys.modules["__main__"].__dict__
    main.clear()
    main.update(__name__="__main__", __builtins__=builtins)
    if Path(program).name == "torchrun":
        _ranks_forked_from(path)
        sys.argv = list(argv)
        sys.path[0] = os.path.dirname(program)
        return _as_main(lambda: runpy.run_path(program, run_name="__main__"), program)
    if os.path.realpath(program) == os.path.realpath(sys.executable):
        args = args[1:] if args[:1] == ["-u"] else args
        if args[:1] == ["-m"] and len(args) > 1:
            sys.argv = ["-m", *args[2:]]
            sys.path[0] = os.getcwd()
            return _as_main(lambda: runpy._run_module_as_main(args[1]), runpy.__file__)
    os.execvpe(program, argv, os.environ)
    return 127


def _ranks_forked_from(path: str) -> None:
    """torchrun's agent starts each rank with Popen: here it asks the server for a fork."""
    from torch.distributed.elastic.multiprocessing.subprocess_handler import subprocess_handler

    def popen(handler, args, env):
        stdout = handler._stdout.fileno() if handler._stdout else 1
        stderr = handler._stderr.fileno() if handler._stderr else 2
        return Child(path, [str(a) for a in args], env, os.getcwd(), [0, stdout, stderr])

    subprocess_handler.SubprocessHandler._popen = popen


def _as_main(run, first_file: str) -> int:
    """Run as the interpreter runs __main__: an uncaught exception prints its traceback from the
    first frame of the program (not of this server), then threads are joined and atexit runs."""
    code = 0
    try:
        run()
    except SystemExit as exit_:
        code = _exit_code(exit_)
    except BaseException as error:  # noqa: BLE001  (what the interpreter itself would print)
        tb = error.__traceback__
        while tb is not None and not _starts_program(tb, first_file):
            tb = tb.tb_next
        error.__traceback__ = tb or error.__traceback__  # hooks that print the error's own
        sys.excepthook(type(error), error, error.__traceback__)
        code = 1
        if isinstance(error, KeyboardInterrupt):
            code = -signal.SIGINT
    with contextlib.suppress(Exception):
        threading._shutdown()
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def _starts_program(tb, first_file: str) -> bool:
    code = tb.tb_frame.f_code
    if first_file == runpy.__file__:
        return code is runpy._run_module_as_main.__code__
    return code.co_filename == first_file


def _exit_code(exit_: SystemExit) -> int:
    if exit_.code is None:
        return 0
    if isinstance(exit_.code, int):
        return exit_.code & 0xFF
    print(exit_.code, file=sys.stderr)
    return 1
