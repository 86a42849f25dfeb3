"""What the environment family's lab scenarios share (tools/repro/scenarios/env_*.py).

- A lab-only torchvision: pip's torchvision wheel (a CUDA build) installed with ``--no-deps``
  into ``.lab/torchvision/`` (ignored by git), never into ``.venv``, where transformers or
  Lightning would import it. Only the torchvision scenario puts it on its ``PYTHONPATH``.
- A tiny C++ extension (a Python module calling ``TORCH_CHECK``, so it links against libc10,
  and turning its ``c10::Error`` into a Python RuntimeError),
  built with g++ in a few tenths of a second, either with the C++ ABI of the installed torch
  or with the other one, as an extension prebuilt for a torch of the other ABI would be.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
LAB_TORCHVISION = REPO_ROOT / ".lab" / "torchvision"
# pip's build for torch 2.13 (a CUDA build: its _C.so needs libtorch_cuda.so), 7.7 MB.
TORCHVISION_PIN = "torchvision==0.28.0"

EXTENSION_SOURCE = r"""
#include <Python.h>
#include <c10/util/Exception.h>

static PyObject* check_positive(PyObject*, PyObject* arg) {
  long value = PyLong_AsLong(arg);
  try {
    TORCH_CHECK(value > 0, "expected a positive number, got ", value);
  } catch (const std::exception& error) {  // a C++ exception must not cross into Python
    PyErr_SetString(PyExc_RuntimeError, error.what());
    return nullptr;
  }
  return PyLong_FromLong(value);
}

static PyMethodDef methods[] = {
    {"check_positive", check_positive, METH_O, nullptr}, {nullptr, nullptr, 0, nullptr}};
static PyModuleDef module = {PyModuleDef_HEAD_INIT, "NAME", nullptr, -1, methods};
PyMODINIT_FUNC PyInit_NAME() { return PyModule_Create(&module); }
"""


def ensure_lab_torchvision() -> Path:
    """Install the lab's torchvision into .lab/torchvision unless it is there; no torch with it."""
    if not (LAB_TORCHVISION / "torchvision" / "__init__.py").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
            + ["--target", str(LAB_TORCHVISION), TORCHVISION_PIN],
            check=True,
        )
    return LAB_TORCHVISION


def extension_source(name: str) -> str:
    return EXTENSION_SOURCE.replace("NAME", name)


def build_extension(name: str, cxx11_abi: bool, directory: str | None = None) -> Path:
    """Compile the tiny extension as `name` into `directory` (a new temporary folder by
    default) with the given C++ ABI; returns the folder, to put on sys.path."""
    import torch

    folder = Path(directory or tempfile.mkdtemp(prefix="faultline-ext-"))
    source = folder / f"{name}.cpp"
    source.write_text(extension_source(name))
    torch_dir = Path(torch.__file__).parent
    target = folder / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(
        ["g++", "-O0", "-shared", "-fPIC", "-std=c++17"]
        + [f"-D_GLIBCXX_USE_CXX11_ABI={int(cxx11_abi)}"]
        + [f"-I{sysconfig.get_paths()['include']}", f"-I{torch_dir / 'include'}"]
        + [str(source), "-o", str(target), f"-L{torch_dir / 'lib'}", "-lc10"]
        + [f"-Wl,-rpath,{torch_dir / 'lib'}"],
        check=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    return folder
