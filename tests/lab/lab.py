"""What every lab test module shares: the scenarios by module name, the launchers to run them
under, and running one for real against what its SCENARIO declares."""

import functools
import importlib.util
import os

import pytest

from tools.repro.run import LAUNCHERS, run_scenario, start_forkserver
from tools.repro.scenarios import all_scenarios

RUN_TIMEOUT_S = 150.0
# The scenarios import torch in processes of their own: this one only needs to know it is there
# (importing it would cost every run of the suite seconds, the fast suite included).
NEEDS_TORCH = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None,
    reason="the reproduction lab needs torch==2.13.0 (see tools/repro/README.md)",
)
SCENARIOS = {s.module.rsplit(".", 1)[-1]: s for s in all_scenarios()}

# make test runs each scenario once, under torchrun (the corpus holds both launchers' output,
# captured by `python -m tools.repro.run --write`, which runs both); FAULTLINE_LAB_ALL_LAUNCHERS=1
# runs every scenario under torch.multiprocessing.spawn as well.
ALL_LAUNCHERS = bool(os.environ.get("FAULTLINE_LAB_ALL_LAUNCHERS"))
LAB_LAUNCHERS = pytest.mark.parametrize("launcher", LAUNCHERS if ALL_LAUNCHERS else ("torchrun",))


# Each test process forks its runs from one server that has imported torch (three imports of
# torch a run saved: tools/repro/forkserver.py); FAULTLINE_LAB_REAL_PROCESSES=1 starts every
# process afresh, as `python -m tools.repro.run` does.
REAL_PROCESSES = bool(os.environ.get("FAULTLINE_LAB_REAL_PROCESSES"))


@functools.cache
def forkserver(preload=()):
    return None if REAL_PROCESSES else start_forkserver(preload)


def run_and_check(module, launcher):
    """Run one scenario for real and assert it behaves as its SCENARIO declares."""
    scenario = SCENARIOS[module]
    result = run_scenario(
        scenario, launcher, timeout_s=RUN_TIMEOUT_S, forkserver=forkserver(scenario.preload)
    )
    assert result.problems() == [], (
        f"{scenario.name} under {launcher} ({result.observed}, {result.seconds:.1f}s):\n"
        f"$ {' '.join(result.command)}\n{result.output[-6000:]}"
    )
    return result
