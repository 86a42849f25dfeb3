"""The reproduction lab for the FSDP/DeepSpeed family (shard_* scenarios) and the devices,
dtypes and shapes family (dev_* scenarios).

FSDP runs for real on CPU with gloo: FSDP1 refuses a partly frozen unit and a unit of two dtypes
while wrapping, and FSDP2's fully_shard trains the partly frozen model. FSDP1's fixes need an
accelerator (on a CPU-only build FSDP1 without device_id refuses with "FSDP needs a non-CPU
accelerator device"). DeepSpeed is not installed here, so of its entries only the batch fix's
arithmetic runs; ZeRO-3's empty shapes need DeepSpeed on GPUs (field pastes only). A float64
NumPy batch, a classifier sized for another input and a model on another device (the meta
device standing in for a GPU) fail for real, and their fixes' snippets train.
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- fsdp-uniform-requires-grad --------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_fsdp1_refuses_a_partly_frozen_unit(launcher):
    run_and_check("shard_fsdp_mixed_requires_grad", launcher)


@pytest.mark.slow
def test_fully_shard_trains_the_partly_frozen_model():
    run_and_check("shard_fsdp_fixed_fully_shard", "torchrun")


# --- fsdp-uniform-dtype ----------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_fsdp1_refuses_a_unit_of_two_dtypes(launcher):
    run_and_check("shard_fsdp_mixed_dtype", launcher)


# --- deepspeed-batch-size-mismatch -----------------------------------------------------------


@pytest.mark.slow
def test_the_batch_fix_satisfies_deepspeeds_rule_for_the_real_world_size():
    run_and_check("shard_ds_fixed_batch_from_world_size", "torchrun")


# --- tensors-on-different-devices ------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_batch_left_on_another_device_than_the_model_is_refused(launcher):
    run_and_check("dev_input_on_other_device", launcher)


@pytest.mark.slow
def test_model_and_batches_on_one_device_train():
    run_and_check("dev_fixed_one_device", "torchrun")


# --- dtype-mismatch --------------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_float64_numpy_batch_into_a_float32_linear_is_refused(launcher):
    run_and_check("dev_numpy_float64_into_linear", launcher)


@pytest.mark.slow
def test_a_dataset_converting_to_float32_trains():
    run_and_check("dev_fixed_float32_dataset", "torchrun")


# --- matmul-shape-mismatch -------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_head_sized_for_another_input_cannot_multiply(launcher):
    run_and_check("dev_classifier_sized_for_other_input", launcher)


@pytest.mark.slow
def test_a_head_sized_from_a_real_input_trains():
    run_and_check("dev_fixed_size_from_input", "torchrun")
