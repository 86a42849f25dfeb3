"""What every lab test module shares: the scenarios by module name, the launchers to run them
under, and running one for real against what its SCENARIO declares."""

import os

import pytest

from tools.repro.run import LAUNCHERS, run_scenario
from tools.repro.scenarios import all_scenarios

RUN_TIMEOUT_S = 150.0
SCENARIOS = {s.module.rsplit(".", 1)[-1]: s for s in all_scenarios()}

BOTH_LAUNCHERS = pytest.mark.parametrize("launcher", LAUNCHERS)
FIX_LAUNCHERS = pytest.mark.parametrize(
    "launcher", LAUNCHERS if os.environ.get("FAULTLINE_LAB_ALL_LAUNCHERS") else ("torchrun",)
)


def run_and_check(module, launcher):
    """Run one scenario for real and assert it behaves as its SCENARIO declares."""
    scenario = SCENARIOS[module]
    result = run_scenario(scenario, launcher, timeout_s=RUN_TIMEOUT_S)
    assert result.problems() == [], (
        f"{scenario.name} under {launcher} ({result.observed}, {result.seconds:.1f}s):\n"
        f"$ {' '.join(result.command)}\n{result.output[-6000:]}"
    )
    return result
