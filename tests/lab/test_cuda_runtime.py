"""The reproduction lab for the CUDA runtime family (cuda_* scenarios).

The lab's torch is the 2.13.0 CPU build, so of this family only a CUDA call on a torch without
CUDA is real here (torch-not-compiled-with-cuda, in each wording the build prints), with its fix.
For cuda-device-side-assert the CUDA text needs a GPU; what runs here is the entry's advice (the
same bug on CPU names the bad value) and its fix's snippet. Same style as test_reproductions.py:
every test runs one scenario for real and asserts it behaves as its SCENARIO declares.
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- torch-not-compiled-with-cuda ---------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_model_cuda_on_a_cpu_build_says_torch_is_not_compiled_with_cuda(launcher):
    run_and_check("cuda_not_compiled_model_cuda", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_set_device_on_a_cpu_build_fails_for_want_of_cuda_set_device(launcher):
    run_and_check("cuda_not_compiled_set_device", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_tensor_on_the_cuda_device_on_a_cpu_build_is_refused(launcher):
    run_and_check("cuda_not_compiled_device_tensor", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_current_device_on_a_cpu_build_is_refused(launcher):
    run_and_check("cuda_not_compiled_current_device", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_pin_memory_on_a_cpu_build_finds_no_accelerator(launcher):
    run_and_check("cuda_not_compiled_pin_memory", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_cuda_stream_on_a_cpu_build_requires_cuda_support(launcher):
    run_and_check("cuda_not_compiled_stream", launcher)


@pytest.mark.slow
def test_the_device_chosen_from_availability_trains_on_cpu():
    run_and_check("cuda_not_compiled_fixed_device_from_availability", "torchrun")


# --- cuda-device-side-assert --------------------------------------------------------------


@pytest.mark.slow
def test_the_out_of_range_label_and_token_id_run_on_cpu_name_the_value():
    run_and_check("cuda_assert_on_cpu_names_the_value", "torchrun")


@pytest.mark.slow
def test_checking_labels_against_num_classes_trains_and_names_the_bad_label():
    run_and_check("cuda_assert_fixed_check_labels", "torchrun")
