"""What the framework scenarios of the system and environment entries share
(scenarios/fw_*_sysenv_*.py): a pretrained model on disk, for scripts that load one with
from_pretrained; an old DeepSpeed beside the framework, for the scripts it breaks.
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


# Python of a DeepSpeed from before 0.8.1 (deepspeedai/DeepSpeed#2863): deepspeed/runtime/utils.py
# imported inf from torch._six, which torch 2.0 removed, and `import deepspeed` reached it.
OLD_DEEPSPEED_INIT = "from torch._six import inf  # as deepspeed/runtime/utils.py did\n"


def old_deepspeed_installed(version: str = "0.8.0") -> None:
    """Put a stand-in for an old DeepSpeed, installed beside the framework, on sys.path: a
    `deepspeed` package with its distribution's metadata (what accelerate's
    is_deepspeed_available looks for), whose import runs the old `from torch._six import inf`.
    Called before the script imports its framework, as an installed package is there from the
    start (the scenario runs in fresh processes, not forked from one that imported it).
    Nothing is installed into the environment: the folder is one under the temporary
    directory, its files written whole (both ranks write the same)."""
    import importlib
    import os
    import sys

    folder = Path(tempfile.gettempdir()) / f"faultline-lab-old-deepspeed-{version}"
    files = {
        "deepspeed/__init__.py": OLD_DEEPSPEED_INIT,
        f"deepspeed-{version}.dist-info/METADATA": (
            f"Metadata-Version: 2.1\nName: deepspeed\nVersion: {version}\n"
        ),
        f"deepspeed-{version}.dist-info/top_level.txt": "deepspeed\n",
    }
    for name, text in files.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}")
            partial.write_text(text)
            os.replace(partial, path)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()


def accelerate_node(module: str, *flags: str, machines: int = 2, rank: int = 0) -> list[str]:
    """`accelerate launch` for one node of a job of `machines` nodes (each a launcher agent on
    127.0.0.1, one process per node), `flags` the node's rendezvous flags (--rdzv_backend,
    --main_process_ip...). --multi_gpu is the machine's line: on a machine without a GPU,
    Accelerate 1.15.0's launch would otherwise start one process without torchrun's
    rendezvous (accelerate/commands/launch.py, launch_command)."""
    import sys

    accelerate = str(Path(sys.executable).with_name("accelerate"))
    return [
        accelerate,
        "launch",
        "--multi_gpu",
        "--num_machines",
        str(machines),
        "--machine_rank",
        str(rank),
        "--num_processes",
        str(machines),
        *flags,
        "-m",
        module,
    ]
