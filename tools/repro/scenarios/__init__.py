"""One module per failure scenario; see tools/repro/README.md.

Importing a scenario module must not start any training: the script body runs
only under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

from tools.repro import harness


def all_scenarios():
    """Every SCENARIO declared in this package, in module-name order.

    The declarations are read from the modules' source, not by importing them: every scenario
    imports torch, which takes seconds, and listing them (the test suite does, to collect the
    lab's tests) needs none of it."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        scenario = _declared(Path(__path__[0]) / f"{info.name}.py")
        if scenario is not None:
            found.append(harness.Scenario(**scenario, module=f"{__name__}.{info.name}"))
    return found


def _declared(path):
    """The keyword arguments of the module's `SCENARIO = Scenario(...)`: literals, or the
    harness's role names (FIXED, ...)."""
    for node in ast.parse(path.read_text()).body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["SCENARIO"]
            and isinstance(node.value, ast.Call)
        ):
            return {kw.arg: _value(kw.value) for kw in node.value.keywords}
    return None


def _value(node):
    if isinstance(node, ast.Name):
        return getattr(harness, node.id)
    return ast.literal_eval(node)
