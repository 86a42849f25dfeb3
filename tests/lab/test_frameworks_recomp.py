"""dynamo-recompile-limit in the Hugging Face Trainer of transformers 5.24.0 and in Accelerate
1.15.0 on torch 2.13.0, CPU, two processes under torchrun: the broken scenarios compile under
the environment of `accelerate launch` (dynamic=False), the Trainer's torch_compile=True over
batches padded to their longest example and Accelerate's TorchDynamoPlugin over twelve
sequence lengths, captured into tests/corpus/; the fixed ones run the entry's mark-dynamic
snippet for that framework as the wizard renders it, with equal gradients across ranks at every
step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_compiling_batches_padded_to_their_longest_hits_the_recompile_limit():
    run_and_check("fw_hf_trainer_recomp_padded_to_longest", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_padding_to_a_multiple_of_64_compiles_each_length_once():
    output = run_and_check("fw_hf_trainer_recomp_fixed_pad_to_multiple", "torchrun").output
    assert "recompile_limit" not in output


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_compiling_under_accelerate_launch_hits_the_recompile_limit():
    run_and_check("fw_accelerate_recomp_dynamic_false", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_dynamic_true_overrides_the_launcher_and_compiles_the_length_once():
    output = run_and_check("fw_accelerate_recomp_fixed_dynamic", "torchrun").output
    assert "recompile_limit" not in output
