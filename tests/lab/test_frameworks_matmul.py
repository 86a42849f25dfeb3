"""matmul-shape-mismatch's fix (size-layer-from-real-input) in the real frameworks (Lightning
2.6.6, the Hugging Face Trainer of transformers 5.24.0) on torch 2.13.0, CPU: a head sized for
8x8 images fed 12x12 ones fails with the entry's text in each framework's frames, captured into
tests/corpus/; the entry's snippet for that framework, as the wizard renders it, sizes the head
from the real input and trains on two processes under torchrun, with equal gradients across
ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_matmul_head_sized_for_other_input",
        "fw_hf_trainer_matmul_head_sized_for_other_input",
    ],
)
def test_head_sized_for_other_images_fails_in_the_first_step_of_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_example_input_array_only_moves_the_failure_into_the_model_summary():
    output = run_and_check("fw_lightning_matmul_example_input_in_summary", "torchrun").output
    assert "in training_step" not in output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_matmul_fixed_size_from_input", "fw_hf_trainer_matmul_fixed_size_from_input"],
)
def test_snippets_sizing_the_head_from_the_real_input_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")
