"""The numerics, devices and compile entries' fixes in the real frameworks (Lightning 2.6.6,
the Hugging Face Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU:
each broken scenario is the user's configuration failing with the entry's text, captured into
tests/corpus/; each fixed one runs the entry's snippet for that framework as the wizard renders
it, on two processes under torchrun, with equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- bf16-unsupported: bf16 asked for on a machine without a GPU ---------------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_bf16_without_a_gpu_is_refused_by_training_arguments():
    output = run_and_check("fw_hf_trainer_numdevcomp_bf16_without_gpu", "torchrun").output
    assert "You need to assign use_cpu" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_bf16_only_where_supported_trains_with_equal_gradients():
    run_and_check("fw_hf_trainer_numdevcomp_fixed_fp16_or_fp32", "torchrun")


# --- dtype-mismatch: float64 NumPy data into a float32 model -------------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_lightning_numdevcomp_float64_batch", "fw_accelerate_numdevcomp_float64_batch"]
)
def test_float64_numpy_batches_are_refused_by_the_first_linear_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_numdevcomp_fixed_cast_in_step", "fw_accelerate_numdevcomp_fixed_cast_on_device"],
)
def test_snippets_casting_to_float32_train_on_float64_batches_with_equal_gradients(module):
    run_and_check(module, "torchrun")
