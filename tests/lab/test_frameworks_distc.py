"""The static-graph, uneven-input, compile and collective entries' fixes in the real frameworks
(Lightning 2.6.6, the Hugging Face Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch
2.13.0, CPU: each broken scenario is the user's configuration failing with the entry's text,
captured into tests/corpus/; each fixed one runs the entry's snippet for that framework as the
wizard renders it, on two processes under torchrun, with equal gradients across ranks at every
optimizer step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- ddp-static-graph-misc-warnings: static_graph switched on once training runs -------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distc_static_graph_set_late",
        "fw_hf_trainer_distc_static_graph_set_late",
        "fw_accelerate_distc_static_graph_set_late",
    ],
)
def test_set_static_graph_after_the_first_step_is_refused_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distc_fixed_static_graph_in_constructor",
        "fw_hf_trainer_distc_fixed_static_graph_in_constructor",
        "fw_accelerate_distc_fixed_static_graph_in_constructor",
    ],
)
def test_snippets_with_static_graph_from_the_start_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-static-graph-prior-reduction: a head used in the first step only, static_graph on ---


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_rewrites_the_static_graph_prior_reduction_error_into_its_unused_wording():
    output = run_and_check("fw_lightning_distc_static_graph_head_first_only", "torchrun").output
    assert "not compatible with static_graph set to True" not in output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_hf_trainer_distc_static_graph_head_first_only",
        "fw_accelerate_distc_static_graph_head_first_only",
    ],
)
def test_static_graph_refuses_the_forward_after_a_head_drops_out(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distc_fixed_static_graph_off_head_first",
        "fw_hf_trainer_distc_fixed_static_graph_off_head_first",
        "fw_accelerate_distc_fixed_static_graph_off_head_first",
    ],
)
def test_snippets_turning_static_graph_off_train_a_head_used_once_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- gloo-collective-timeout: rank 0 busy for longer than the timeout between two steps ------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distc_rank_zero_late",
        "fw_hf_trainer_distc_rank_zero_late",
        "fw_accelerate_distc_rank_zero_late",
    ],
)
def test_a_rank_busy_past_the_timeout_leaves_the_other_timing_out_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distc_fixed_timeout_covers_slow_rank",
        "fw_hf_trainer_distc_fixed_timeout_covers_slow_rank",
        "fw_accelerate_distc_fixed_timeout_covers_slow_rank",
    ],
)
def test_snippets_with_a_timeout_covering_the_slow_rank_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-uneven-inputs-hang: shards cut by hand, 2 batches on rank 0 and 4 on rank 1 ---------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_lightning_distc_uneven_shards", "fw_accelerate_distc_uneven_shards"]
)
def test_uneven_hand_cut_shards_leave_the_longer_rank_timing_out(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_with_its_distributed_sampler_trains_with_equal_gradients():
    run_and_check("fw_lightning_distc_fixed_distributed_sampler", "torchrun")


# --- dist-collective-mismatch-detail: uneven predictions gathered under DETAIL ---------------


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_gather_for_metrics_of_uneven_predictions_is_a_detail_mismatch():
    output = run_and_check("fw_accelerate_distc_gather_uneven_predictions", "torchrun").output
    assert "Tensor shapes" in output


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_padding_before_gathering_gives_every_rank_the_same_predictions():
    run_and_check("fw_accelerate_distc_fixed_pad_then_gather", "torchrun")
