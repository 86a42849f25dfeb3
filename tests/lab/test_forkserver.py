"""The lab's fork server: a run forked from it shows what a run of fresh processes shows."""

import os
import re
import signal
import sys

import pytest

from tests.lab.lab import NEEDS_TORCH, SCENARIOS, forkserver, run_and_check
from tools.repro.run import lab_env, run_scenario

pytestmark = [pytest.mark.slow, NEEDS_TORCH]


def frames(output):
    """Each rank's traceback frames, without the rank prefix."""
    return re.findall(r"^\[rank\d\]: (  File .*)$", output, re.M)


def test_a_forked_run_prints_the_frames_a_fresh_run_prints():
    if forkserver() is None:
        pytest.skip("FAULTLINE_LAB_REAL_PROCESSES is set")
    scenario = SCENARIOS["ckpt_size_mismatch"]
    forked = run_and_check("ckpt_size_mismatch", "torchrun")
    fresh = run_scenario(scenario, "torchrun", timeout_s=150.0)
    assert fresh.problems() == []
    assert set(frames(forked.output)) == set(frames(fresh.output))
    assert frames(forked.output)[0] == '  File "<frozen runpy>", line 198, in _run_module_as_main'
    assert "forkserver.py" not in forked.output


def run(argv, cwd=None):
    """Start argv from the server with the terminal replaced by a pipe; its output and exit."""
    read, write = os.pipe()
    with open(os.devnull, "rb") as devnull:
        child = forkserver().spawn(argv, lab_env(), [devnull.fileno(), write, write], cwd)
    os.close(write)
    with os.fdopen(read) as pipe:
        output = pipe.read()
    return output, child.wait(30)


@pytest.fixture
def server():
    if forkserver() is None:
        pytest.skip("FAULTLINE_LAB_REAL_PROCESSES is set")


def test_a_module_runs_as_python_dash_m_runs_it(server, tmp_path):
    (tmp_path / "probe.py").write_text(
        "import os, sys, torch\n"
        "print(__name__, sys.argv[1:], sys.path[0] == os.getcwd())\n"
        "raise SystemExit(3)\n"
    )
    output, code = run([sys.executable, "-u", "-m", "probe", "a"], cwd=tmp_path)
    assert (output, code) == ("__main__ ['a'] True\n", 3)


def test_an_uncaught_error_prints_its_traceback_from_the_program_and_exits_1(server, tmp_path):
    (tmp_path / "boom.py").write_text("def f():\n    raise ValueError('boom')\nf()\n")
    output, code = run([sys.executable, "-m", "boom"], cwd=tmp_path)
    assert code == 1
    assert output.splitlines()[:3] == [
        "Traceback (most recent call last):",
        '  File "<frozen runpy>", line 198, in _run_module_as_main',
        '  File "<frozen runpy>", line 88, in _run_code',
    ]
    assert output.endswith("ValueError: boom\n")


def test_a_signal_is_a_negative_exit_code_and_another_program_is_exec_d(server):
    output, code = run(["/bin/sh", "-c", "echo from sh; kill -TERM $$"])
    assert (output, code) == ("from sh\n", -signal.SIGTERM)
