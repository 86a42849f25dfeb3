"""The reproduction lab for the graph-contract entries (DDP's reducer and autograd).

Scenarios added for ddp-mark-variable-ready-twice, ddp-static-graph-prior-reduction,
autograd-backward-second-time, checkpoint-inputs-no-grad and ddp-unused-params-prior-reduction
(the g1_* modules in tools/repro/scenarios).  Same conventions as test_reproductions.py: broken
scenarios run under both launchers, fixed ones under torchrun only unless
FAULTLINE_LAB_ALL_LAUNCHERS=1.  Needs torch==2.13.0; skipped cleanly without it.
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- ddp-mark-variable-ready-twice --------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_reentrant_checkpoint_with_find_unused_parameters_marks_a_variable_ready_twice(
    launcher,
):
    output = run_and_check("g1_twice_reentrant_find_unused", launcher).output
    assert "name l1." in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_non_reentrant_checkpoint_with_find_unused_parameters_completes_with_equal_gradients(
    launcher,
):
    run_and_check("g1_twice_fixed_non_reentrant_find_unused", launcher)


# --- ddp-static-graph-prior-reduction -----------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_param_dropped_after_iteration_one_fails_a_later_forward(launcher):
    output = run_and_check("g1_static_graph_param_dropped", launcher).output
    assert "Your training graph has changed" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_with_an_output_left_out_of_the_loss_fails_a_later_forward(launcher):
    run_and_check("g1_static_graph_unused_output", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_without_static_graph_lets_a_head_drop_out(launcher):
    run_and_check("g1_static_graph_fixed_find_unused", launcher)


# --- autograd-backward-second-time --------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_second_backward_over_a_shared_trunk_without_retain_graph_is_refused_by_autograd(
    launcher,
):
    output = run_and_check("g1_backward_second_time", launcher).output
    assert "reducer.cpp" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_summing_the_losses_into_one_backward_avoids_the_second_backward(launcher):
    run_and_check("g1_backward_second_time_fixed", launcher)


# --- checkpoint-inputs-no-grad ------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_reentrant_checkpoint_behind_a_frozen_input_warns_and_never_trains_the_block(launcher):
    run_and_check("g1_checkpoint_input_no_grad", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_reentrant_checkpoint_behind_a_frozen_input_under_default_ddp_fails_the_next_forward(
    launcher,
):
    run_and_check("g1_checkpoint_input_no_grad_default_ddp", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_non_reentrant_checkpoint_behind_a_frozen_input_trains_the_block(launcher):
    run_and_check("g1_checkpoint_fixed_non_reentrant", launcher)
