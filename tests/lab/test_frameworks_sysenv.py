"""The system and environment entries' fixes in the real frameworks (the Hugging Face Trainer
of transformers 5.24.0) on torch 2.13.0, CPU: the broken scenario is the user's configuration
failing with the entry's text, captured into tests/corpus/; the fixed one runs the entry's
snippet for that framework as the wizard renders it, on two processes under torchrun, with
equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- python-module-not-found: flash_attention_2 asked for, flash_attn not installed --------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_flash_attention_2_without_flash_attn_is_refused_by_from_pretrained():
    output = run_and_check("fw_hf_trainer_sysenv_flash_attention_missing", "torchrun").output
    assert "the package for FlashAttention2 doesn't seem to be installed" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_sdpa_attention_trains_with_equal_gradients():
    output = run_and_check("fw_hf_trainer_sysenv_fixed_sdpa_attention", "torchrun").output
    assert "attention: sdpa" in output
