"""ddp-uneven-inputs-hang's Trainer form in the Hugging Face Trainer of transformers 5.24.0 on
torch 2.13.0, CPU, two processes under torchrun: a shard cut by hand on each rank leaves the
longer rank timing out (captured into tests/corpus/gloo-collective-timeout/, the timeout's
entry), and the entry's snippet, the whole dataset on every rank, trains with equal gradients
across ranks at every optimizer step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check


@pytest.mark.slow
@NEEDS_TORCH
def test_trainer_given_a_hand_cut_shard_per_rank_leaves_the_longer_rank_timing_out():
    output = run_and_check("fw_hf_trainer_uneven_own_shard_per_rank", "torchrun").output
    assert "in store_flos" in output  # the shorter rank waits in the Trainer's own all_gather


@pytest.mark.slow
@NEEDS_TORCH
def test_trainer_snippet_over_the_whole_dataset_trains_with_equal_gradients():
    run_and_check("fw_hf_trainer_uneven_fixed_whole_dataset", "torchrun")
