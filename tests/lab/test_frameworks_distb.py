"""The reducer entries' fixes in the real frameworks (Lightning 2.6.6, the Hugging Face Trainer
of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU: each broken scenario is the
user's configuration failing with the entry's text (or, for a silent failure, printing that the
ranks' gradients differ), captured into tests/corpus/; each fixed one runs the entry's snippet
for that framework as the wizard renders it, on two processes under torchrun, with equal
gradients across ranks at every step where it trains.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- ddp-mark-variable-ready-twice: reentrant checkpointing with find_unused_parameters ----


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_find_unused_parameters_off_trains_the_reentrant_gpt2_equally():
    run_and_check("fw_hf_trainer_distb_fixed_find_unused_off", "torchrun")


# --- autograd-backward-second-time: two backwards over one forward, no retain_graph --------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_two_backwards_without_retain",
        "fw_accelerate_distb_two_backwards_without_retain",
    ],
)
def test_two_backwards_without_retain_graph_are_refused_by_autograd_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_distb_fixed_single_backward", "fw_accelerate_distb_fixed_single_backward"],
)
def test_snippets_summing_the_losses_into_one_backward_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-rank-dependent-unused-hang: a layer used on rank 0 only ---------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_branch_on_one_rank",
        "fw_hf_trainer_distb_branch_on_one_rank",
        "fw_accelerate_distb_branch_on_one_rank",
    ],
)
def test_a_layer_used_on_one_rank_only_fails_both_ranks_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_fixed_find_unused_branch",
        "fw_hf_trainer_distb_fixed_find_unused_branch",
        "fw_accelerate_distb_fixed_find_unused_branch",
    ],
)
def test_snippets_finding_unused_parameters_train_a_rank_dependent_branch_equally(module):
    run_and_check(module, "torchrun")


# --- ddp-silent-unsynced-backward and ddp-expect-autograd-hooks-assert: no_sync() by hand ---


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_hf_trainer_distb_forward_in_no_sync", "fw_accelerate_distb_forward_in_no_sync"]
)
def test_a_forward_in_no_sync_with_its_backward_outside_leaves_gradients_unsynchronised(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_hf_trainer_distb_static_graph_forward_in_no_sync",
        "fw_accelerate_distb_static_graph_forward_in_no_sync",
    ],
)
def test_the_same_split_with_static_graph_trips_the_expect_autograd_hooks_assertion(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_forward_in_no_sync",
        "fw_lightning_distb_static_graph_forward_in_no_sync",
        "fw_lightning_distb_second_backward_retain_graph",
    ],
)
def test_lightning_arms_the_reducer_at_each_manual_backward_so_gradients_stay_equal(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_fixed_align_no_sync",
        "fw_hf_trainer_distb_fixed_align_no_sync",
        "fw_accelerate_distb_fixed_align_no_sync",
        "fw_lightning_distb_fixed_align_no_sync_silent",
        "fw_hf_trainer_distb_fixed_align_no_sync_silent",
        "fw_accelerate_distb_fixed_align_no_sync_silent",
    ],
)
def test_snippets_leaving_no_sync_to_the_framework_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_one_summed_loss_trains_with_equal_gradients():
    run_and_check("fw_lightning_distb_fixed_single_backward_silent", "torchrun")


# --- ddp-create-graph-warning: a gradient penalty by backward(create_graph=True) -----------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_create_graph_penalty",
        "fw_hf_trainer_distb_create_graph_penalty",
        "fw_accelerate_distb_create_graph_penalty",
    ],
)
def test_a_create_graph_backward_through_ddp_warns_then_fails_in_the_reducer(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_distb_fixed_penalty_outside_ddp",
        "fw_hf_trainer_distb_fixed_penalty_outside_ddp",
        "fw_accelerate_distb_fixed_penalty_outside_ddp",
    ],
)
def test_snippets_penalty_from_autograd_grad_train_without_the_warning(module):
    output = run_and_check(module, "torchrun").output
    assert "create_graph=True" not in output
