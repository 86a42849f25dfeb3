"""Run the DDP failure scenarios and check (or capture) what the terminal shows.

    python -m tools.repro.run --list
    python -m tools.repro.run                      # run-and-check everything, both launchers
    python -m tools.repro.run --launcher torchrun ddp-mark-variable-ready-twice
    python -m tools.repro.run --write              # also (re)write the corpus files
                                                   # tests/corpus/<slug>/<variant>-<launcher>.txt

Positional arguments select scenarios by entry slug, variant name or module
name (exact match).  Each run is bounded by --timeout; on timeout the whole
process group is killed.

Output is captured through a pseudo-terminal, so the scripts see a real tty
(line-buffered stdout, stdout and stderr interleaved exactly as on screen).
The only terminal setting changed is ONLCR (off), so lines end in "\\n"
rather than the "\\r\\n" a tty would emit; the bytes are otherwise untouched.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

from tools.repro.forkserver import ForkServer
from tools.repro.harness import WORLD_SIZE, Scenario, free_port
from tools.repro.scenarios import all_scenarios

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = REPO_ROOT / "tests" / "corpus"
LAUNCHERS = ("spawn", "torchrun")
DEFAULT_TIMEOUT_S = 90.0


@dataclass
class RunResult:
    scenario: Scenario
    launcher: str
    command: list[str]
    output: str
    returncode: int | None  # None when killed on timeout
    timed_out: bool
    seconds: float

    @property
    def observed(self) -> str:
        if self.timed_out:
            return "timeout"
        return f"exit {self.returncode}"

    def problems(self) -> list[str]:
        """Why this run does not match the scenario's expectation ([] if it does)."""
        found = []
        if self.timed_out:
            found.append("timed out")
        elif self.scenario.expect == "complete" and self.returncode != 0:
            found.append(f"expected exit 0, got {self.returncode}")
        elif self.scenario.expect == "fail" and self.returncode == 0:
            found.append("expected a non-zero exit, got 0")
        for text in self.scenario.key_text:
            if text not in self.output:
                found.append(f"missing key text: {text!r}")
        if (
            self.scenario.expect == "complete"
            and "Traceback (most recent call last)" in self.output
        ):
            found.append("completed, but printed a traceback")
        return found

    @property
    def ok(self) -> bool:
        return not self.problems()

    @property
    def corpus_path(self) -> Path:
        folder = self.scenario.corpus_folder
        return CORPUS_DIR / folder / f"{self.scenario.variant}-{self.launcher}.txt"


def torchrun_executable() -> str:
    candidate = Path(sys.executable).with_name("torchrun")
    return str(candidate) if candidate.exists() else "torchrun"


def build_command(scenario: Scenario, launcher: str, port: int) -> list[str]:
    if launcher == "spawn":
        return [sys.executable, "-m", scenario.module]
    if launcher == "torchrun":
        return [
            torchrun_executable(),
            "--nproc-per-node",
            str(WORLD_SIZE),
            "--master-addr",
            "127.0.0.1",
            "--master-port",
            str(port),
            "-m",
            scenario.module,
        ]
    raise ValueError(f"unknown launcher {launcher!r}")


def lab_env() -> dict[str, str]:
    """The environment every run starts from (and the fork server imports torch in)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TORCHELASTIC_", "PYTEST_"))
        and k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "TORCH_DISTRIBUTED_DEBUG")
    }
    env.update(OMP_NUM_THREADS="1", TERM=env.get("TERM", "xterm"))
    return env


def build_env(scenario: Scenario, port: int) -> dict[str, str]:
    return {**lab_env(), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), **scenario.env}


def start_forkserver(preload: tuple[str, ...] = ()) -> ForkServer:
    # The interpreter torchrun's script names, so that ranks print the binary torchrun would.
    first_line = Path(torchrun_executable()).read_text().partition("\n")[0]
    python = first_line[2:].strip() if first_line.startswith("#!") else sys.executable
    python = python if os.path.exists(python) else sys.executable
    return ForkServer(lab_env(), REPO_ROOT, python, preload)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_scenario(
    scenario: Scenario,
    launcher: str,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    forkserver: ForkServer | None = None,
) -> RunResult:
    """Run one scenario under one launcher, capturing the terminal output.

    With a fork server, its processes are forks of one that has imported torch, unless the
    scenario sets variables (torch reads some as it is imported) or asks for fresh processes."""
    port = free_port()
    command = build_command(scenario, launcher, port)
    env = build_env(scenario, port)
    master_fd, slave_fd = pty.openpty()
    attrs = termios.tcgetattr(slave_fd)
    attrs[1] &= ~termios.ONLCR  # keep "\n" line endings
    termios.tcsetattr(slave_fd, termios.TCSANOW, attrs)
    if scenario.env or scenario.fresh_processes:
        forkserver = None

    started = time.monotonic()
    if forkserver:
        with open(os.devnull, "rb") as devnull:
            proc = forkserver.spawn(command, env, [devnull.fileno(), slave_fd, slave_fd])
    else:
        proc = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=slave_fd,
            stderr=slave_fd,
            start_new_session=True,  # own process group: a timeout kills every rank
        )
    os.close(slave_fd)

    chunks: list[bytes] = []
    timed_out = False
    deadline = started + timeout_s
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                _kill_group(proc.pid)
                break
            ready, _, _ = select.select([master_fd], [], [], min(remaining, 0.5))
            if ready:
                try:
                    data = os.read(master_fd, 65536)
                except OSError:  # EIO: every writer closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                # Main process exited; drain what is left, but don't wait on
                # orphans that still hold the terminal open.
                _kill_group(proc.pid)
                if forkserver:
                    forkserver.kill_strays()
        # Drain anything written just before exit / kill.
        while select.select([master_fd], [], [], 0.2)[0]:
            try:
                data = os.read(master_fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master_fd)
        _kill_group(proc.pid)
        if forkserver:
            forkserver.kill_strays()
        returncode = proc.wait()
    seconds = time.monotonic() - started
    output = b"".join(chunks).decode("utf-8", errors="replace")
    return RunResult(
        scenario, launcher, command, output, None if timed_out else returncode, timed_out, seconds
    )


def select_scenarios(
    selectors: list[str], scenarios: list[Scenario] | None = None
) -> list[Scenario]:
    scenarios = all_scenarios() if scenarios is None else scenarios
    if not selectors:
        return scenarios
    chosen = [
        s
        for s in scenarios
        if {s.slug, s.variant, s.module, s.module.rsplit(".", 1)[-1]} & set(selectors)
    ]
    unknown = [
        sel
        for sel in selectors
        if not any(
            sel in {s.slug, s.variant, s.module, s.module.rsplit(".", 1)[-1]} for s in scenarios
        )
    ]
    if unknown:
        raise SystemExit(f"no scenario matches: {', '.join(unknown)} (see --list)")
    return chosen


def write_capture(result: RunResult) -> Path:
    path = result.corpus_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(result.output, encoding="utf-8", newline="")
    return path


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.repro.run", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("selectors", nargs="*", metavar="SLUG_OR_VARIANT")
    parser.add_argument("--launcher", choices=("spawn", "torchrun", "both"), default="both")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        help="seconds per run (default %(default)s)",
    )
    parser.add_argument("--list", action="store_true", help="list scenarios and exit")
    parser.add_argument(
        "--write",
        action="store_true",
        help="write the output of passing runs of broken/negative scenarios into tests/corpus/",
    )
    parser.add_argument("--show", action="store_true", help="print each run's captured output")
    args = parser.parse_args(argv)

    scenarios = select_scenarios(args.selectors)
    if args.list:
        rows = [("module", "slug", "variant", "role", "expect", "description")]
        rows += [
            (s.module.rsplit(".", 1)[-1], s.slug, s.variant, s.role, s.expect, s.description)
            for s in scenarios
        ]
        print(_table(rows))
        return 0

    launchers = LAUNCHERS if args.launcher == "both" else (args.launcher,)
    rows = [("scenario", "launcher", "expected", "observed", "seconds", "check")]
    failures = 0
    for scenario in scenarios:
        for launcher in launchers:
            if launcher not in scenario.launchers:
                continue
            result = run_scenario(scenario, launcher, args.timeout)
            problems = result.problems()
            failures += bool(problems)
            status = "ok" if not problems else "MISMATCH: " + "; ".join(problems)
            if args.write and scenario.captured:
                if problems:
                    status += " (not written)"
                else:
                    write_capture(result)
                    status += f" -> {result.corpus_path.relative_to(REPO_ROOT)}"
            expected = "exit 0" if scenario.expect == "complete" else "exit !=0"
            rows.append(
                (
                    scenario.name,
                    launcher,
                    expected,
                    result.observed,
                    f"{result.seconds:.1f}",
                    status,
                )
            )
            print(
                f"{scenario.name} [{launcher}] {result.observed} "
                f"in {result.seconds:.1f}s: {status}",
                flush=True,
            )
            if args.show or problems:
                print("    $ " + " ".join(result.command))
                print(
                    "".join("    | " + line + "\n" for line in result.output.splitlines()),
                    flush=True,
                )
    print()
    print(_table(rows))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
