"""The reproduction lab for the collectives and configuration entries (group g4).

Same style as test_reproductions.py: each test runs one scenario from
tools/repro/scenarios for real through `tools.repro.run.run_scenario` and asserts on
`RunResult.problems()`.  Broken scenarios run under both launchers, fixed ones under
torchrun only (FAULTLINE_LAB_ALL_LAUNCHERS=1 runs them under spawn as well).
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- ddp-param-shape-mismatch -------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_different_hidden_size_on_rank_1_fails_ddp_construction_on_that_rank(launcher):
    output = run_and_check("g4_param_shape_mismatch", launcher).output
    assert "[1]: params[0] in this process with sizes [5, 4]" in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_one_config_for_every_rank_builds_models_ddp_accepts(launcher):
    run_and_check("g4_fixed_same_param_shapes", launcher)


# --- ddp-param-count-mismatch -------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_layer_frozen_on_one_rank_only_fails_ddp_construction_on_every_rank(launcher):
    output = run_and_check("g4_param_count_mismatch", launcher).output
    # Under spawn only the first rank to fail is printed; each rank states its own view.
    assert (
        "Rank 0 has 4 params, while rank 1 has inconsistent 2 params" in output
        or "Rank 1 has 2 params, while rank 0 has inconsistent 4 params" in output
    )


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_same_frozen_layers_on_every_rank_train_with_equal_gradients(launcher):
    run_and_check("g4_fixed_same_trainable_params", launcher)


# --- ddp-no-trainable-params --------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_wrapping_a_frozen_teacher_in_ddp_is_refused(launcher):
    run_and_check("g4_no_trainable_params", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_wrapping_only_the_student_trains_with_equal_gradients(launcher):
    run_and_check("g4_fixed_do_not_wrap_frozen", launcher)


# --- ddp-uninitialized-lazy-params --------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_wrapping_a_lazy_linear_before_any_forward_is_refused(launcher):
    run_and_check("g4_lazy_params", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_dummy_forward_before_wrapping_materialises_lazy_parameters(launcher):
    run_and_check("g4_fixed_lazy_dummy_forward", launcher)


# --- ddp-device-ids-misuse ----------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_device_ids_for_a_cpu_module_are_refused(launcher):
    output = run_and_check("g4_device_ids_cpu_module", launcher).output
    assert "module parameters {device(type='cpu')}" in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_more_than_one_device_id_is_refused(launcher):
    run_and_check("g4_device_ids_several", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_no_device_ids_for_a_cpu_module_trains_with_equal_gradients(launcher):
    run_and_check("g4_fixed_device_ids_none_on_cpu", launcher)


# --- ddp-state-dict-module-prefix ---------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_state_dict_saved_from_the_wrapper_does_not_load_into_the_plain_model(launcher):
    run_and_check("g4_state_dict_saved_from_wrapper", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_plain_state_dict_does_not_load_into_the_wrapper(launcher):
    run_and_check("g4_state_dict_loaded_into_wrapper", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_state_dict_saved_from_a_compiled_wrapper_carries_orig_mod_too(launcher):
    run_and_check("g4_state_dict_saved_from_compiled", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_saving_module_state_dict_and_consuming_the_prefixes_load_cleanly(launcher):
    run_and_check("g4_fixed_state_dict_prefix", launcher)


# --- gloo-collective-timeout --------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_rank_late_for_all_reduce_makes_the_other_time_out(launcher):
    run_and_check("g4_gloo_timeout_straggler", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_timeout_longer_than_the_slow_rank_lets_the_all_reduce_complete(launcher):
    run_and_check("g4_fixed_collective_in_time", launcher)


# --- dist-collective-mismatch-detail ------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_detail_reports_all_reduce_against_broadcast_at_once(launcher):
    run_and_check("g4_collective_mismatch_optype", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_detail_reports_all_reduce_with_different_shapes_at_once(launcher):
    run_and_check("g4_collective_mismatch_shape", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_same_collectives_on_every_rank_pass_the_detail_check(launcher):
    run_and_check("g4_fixed_same_collectives", launcher)


# --- ddp-torch-compile --------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_compiled_autograd_refuses_the_cpp_reducer(launcher):
    run_and_check("g4_compiled_autograd_cpp_reducer", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_python_reducer_lets_compiled_autograd_synchronise_gradients(launcher):
    run_and_check("g4_fixed_compiled_autograd_python_reducer", launcher)
