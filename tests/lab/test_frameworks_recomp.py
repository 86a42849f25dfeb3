"""dynamo-recompile-limit in the Hugging Face Trainer of transformers 5.24.0 on torch 2.13.0,
CPU, two processes under torchrun: the broken scenario is torch_compile=True under the
environment of `accelerate launch` (dynamic=False) over batches padded to their longest
example, captured into tests/corpus/; the fixed one runs the entry's mark-dynamic snippet for
the Trainer as the wizard renders it, with equal gradients across ranks at every step.
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
