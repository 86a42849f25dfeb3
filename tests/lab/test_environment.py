"""The environment family's reproductions (tools/repro/scenarios/env_*.py): failures of what is
installed, which every process of a job meets on its own, run under the lab's launchers as a
user would start the job.

The torchvision scenario needs pip's torchvision 0.28.0 in .lab/torchvision (never in .venv);
tools/repro/env_support.py installs it there, without its dependencies, when it is missing.
The extension scenarios need g++ (the build-essential of the machine).
"""

import shutil

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

NEEDS_GXX = pytest.mark.skipif(shutil.which("g++") is None, reason="the extension needs g++")


# --- torch-six-removed -----------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_importing_torch_six_on_torch_2_fails_on_every_rank(launcher):
    output = run_and_check("env_torch_six_import", launcher).output
    assert "from torch._six import inf" in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_standard_library_names_replace_torch_six_and_training_goes_on(launcher):
    run_and_check("env_torch_six_fixed_shim", launcher)


# --- python-module-not-found -----------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_package_missing_from_the_interpreter_fails_before_any_process_group(launcher):
    output = run_and_check("env_module_not_found_flash_attn", launcher).output
    assert "[rank" not in output.split("ModuleNotFoundError")[0]


@pytest.mark.slow
@LAB_LAUNCHERS
def test_an_optional_import_with_torchs_own_attention_trains_without_the_package(launcher):
    run_and_check("env_module_fixed_optional_flash_attn", launcher)


# --- torchvision-version-mismatch ------------------------------------------------------------


@pytest.fixture
def lab_torchvision():
    from tools.repro.env_support import ensure_lab_torchvision

    return ensure_lab_torchvision()


@pytest.mark.slow
@LAB_LAUNCHERS
def test_pips_cuda_torchvision_beside_the_cpu_torch_has_no_nms_operator(launcher, lab_torchvision):
    output = run_and_check("env_torchvision_cuda_wheel_cpu_torch", launcher).output
    assert "torchvision/_meta_registrations.py" in output


# --- extension-undefined-symbol --------------------------------------------------------------


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_an_extension_built_with_the_other_cxx_abi_has_an_undefined_symbol(launcher):
    output = run_and_check("env_extension_other_abi", launcher).output
    assert "ImportError: " in output


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_the_same_extension_rebuilt_with_torchs_build_helpers_imports_and_runs(launcher):
    run_and_check("env_extension_fixed_rebuild", launcher)
