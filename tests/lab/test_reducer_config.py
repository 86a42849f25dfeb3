"""The reproduction lab for DDP reducer configuration, warnings and desyncs (CPU, gloo, 2 ranks).

Same style as test_reproductions.py: each test runs one scenario through the
run-and-check mode of ``python -m tools.repro.run`` and asserts on its exit
status and key text.  Broken scenarios run under both launchers, fixed ones
and non-reproductions under torchrun only.  Needs torch==2.13.0; skips without it.
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- ddp-no-sync-misuse -------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_no_sync_window_differing_per_rank_hangs_until_the_gloo_timeout(launcher):
    run_and_check("g2_no_sync_counter_differs", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_same_accumulation_window_on_every_rank_completes_with_equal_gradients(launcher):
    run_and_check("g2_fixed_same_accumulation_window", launcher)


# --- ddp-rank-dependent-unused-hang -----------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_layer_used_on_one_rank_only_desynchronises_the_buckets(launcher):
    run_and_check("g2_rank_dependent_unused", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_lets_a_rank_dependent_branch_train(launcher):
    run_and_check("g2_fixed_find_unused_parameters_rank_branch", launcher)


# --- ddp-uneven-inputs-hang ---------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_rank_with_more_batches_hangs_in_backward_until_the_gloo_timeout(launcher):
    run_and_check("g2_uneven_inputs", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_join_lets_ranks_with_uneven_batches_finish(launcher):
    run_and_check("g2_fixed_join_uneven_inputs", launcher)


# --- ddp-find-unused-parameters-perf-warning ---------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_with_every_parameter_used_warns_and_completes(launcher):
    run_and_check("g2_find_unused_all_used", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_off_completes_without_the_warning(launcher):
    output = run_and_check("g2_fixed_find_unused_off", launcher).output
    assert "did not find any unused parameters" not in output


# --- ddp-static-graph-misc-warnings -------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_set_static_graph_after_the_first_iteration_raises(launcher):
    run_and_check("g2_set_static_graph_late", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_set_static_graph_with_find_unused_parameters_warns_and_completes(launcher):
    run_and_check("g2_static_graph_with_find_unused", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_in_the_constructor_completes_with_equal_gradients(launcher):
    run_and_check("g2_fixed_static_graph_in_constructor", launcher)


# --- ddp-buffer-broadcast-inplace ---------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_two_forwards_with_a_buffer_before_one_backward_no_longer_raise_on_2_13(launcher):
    output = run_and_check("g2_buffer_two_forwards", launcher).output
    assert "modified by an inplace operation" not in output


# --- ddp-gradient-as-bucket-view-detach ---------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_detaching_bucket_view_gradients_in_place_raises(launcher):
    run_and_check("g2_grad_bucket_view_detach", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_optimizer_zero_grad_with_bucket_views_completes_with_equal_gradients(launcher):
    run_and_check("g2_fixed_zero_grad_bucket_view", launcher)


# --- ddp-create-graph-warning -------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_backward_with_create_graph_through_ddp_warns(launcher):
    run_and_check("g2_create_graph_backward", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_penalty_from_autograd_grad_with_one_backward_completes_with_equal_gradients(launcher):
    run_and_check("g2_fixed_penalty_with_autograd_grad", launcher)


# --- ddp-comm-hook-twice ------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_registering_a_second_comm_hook_raises(launcher):
    run_and_check("g2_comm_hook_twice", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_one_comm_hook_completes_with_equal_gradients(launcher):
    run_and_check("g2_fixed_one_comm_hook", launcher)
