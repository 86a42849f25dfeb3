"""What the framework scenarios of the system and environment entries share
(scenarios/fw_*_sysenv_*.py): a pretrained model on disk, for scripts that load one with
from_pretrained.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from tools.repro.framework_support import tiny_gpt2


@contextlib.contextmanager
def saved_tiny_gpt2():
    """The folder of framework_support.tiny_gpt2 saved with save_pretrained, as a model a script
    names by its folder (nothing downloaded), removed once loaded. Every process saves its own
    copy: the ranks have no process group yet to agree on one, and the copies are equal (the
    model is seeded)."""
    folder = Path(tempfile.mkdtemp(prefix="tiny-gpt2-"))
    try:
        tiny_gpt2().save_pretrained(folder)
        yield str(folder)
    finally:
        shutil.rmtree(folder)
