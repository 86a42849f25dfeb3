"""The reproduction lab for the numerics family (num_* scenarios): NaN losses, anomaly mode,
GradScaler misuse and CPU autocast dtype mismatches, real on this CPU machine, with the entries'
fixes run from their own snippets.

DeepSpeed's and apex's loss-scaler lines (fp16-gradient-overflow, fp16-loss-scale-minimum) and
bf16 on GPUs older than Ampere (bf16-unsupported) need those GPUs and libraries: their entries
rely on field pastes (tests/field/)."""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- loss-nan-or-inf ---------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_log_of_a_saturated_sigmoid_makes_the_loss_nan(launcher):
    run_and_check("num_loss_nan_log_of_zero", launcher)


@pytest.mark.slow
def test_the_clamped_log_trains_on_the_same_batches():
    run_and_check("num_loss_fixed_clamped_log", "torchrun")


# --- autograd-anomaly-nan ----------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_anomaly_mode_names_the_backward_that_returned_nan(launcher):
    output = run_and_check("num_anomaly_nan_in_backward", launcher).output
    assert "Error detected in" in output


@pytest.mark.slow
def test_an_epsilon_inside_the_sqrt_passes_anomaly_mode():
    run_and_check("num_anomaly_fixed_eps_in_sqrt", "torchrun")


# --- gradscaler-unscale-twice ------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_unscaling_on_every_micro_batch_raises_on_the_second(launcher):
    run_and_check("num_gradscaler_unscale_every_micro_step", launcher)


@pytest.mark.slow
def test_unscaling_once_per_optimizer_step_trains():
    run_and_check("num_gradscaler_fixed_unscale_at_step", "torchrun")


@pytest.mark.slow
@LAB_LAUNCHERS
def test_skipping_the_update_with_a_skipped_step_raises_at_the_next_unscale(launcher):
    run_and_check("num_gradscaler_update_skipped_with_step", launcher)


@pytest.mark.slow
def test_updating_on_every_iteration_trains_through_an_overflow():
    run_and_check("num_gradscaler_fixed_update_every_iteration", "torchrun")


# --- gradscaler-unscale-fp16-gradients ---------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_half_model_under_a_gradscaler_is_refused(launcher):
    run_and_check("num_gradscaler_fp16_parameters", launcher)


# --- autocast-dtype-mismatch -------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_bf16_activation_used_after_autocast_fails_the_dtype_check(launcher):
    run_and_check("num_autocast_output_used_outside", launcher)
