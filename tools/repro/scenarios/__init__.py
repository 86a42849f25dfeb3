"""One module per failure scenario; see tools/repro/README.md.

Importing a scenario module must not start any training: the script body runs
only under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil


def all_scenarios():
    """Every SCENARIO declared in this package, in module-name order."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module_name = f"{__name__}.{info.name}"
        module = importlib.import_module(module_name)
        scenario = getattr(module, "SCENARIO", None)
        if scenario is not None:
            found.append(dataclasses.replace(scenario, module=module_name))
    return found
