"""The reproduction lab: real DDP failures on CPU/gloo, 2 processes.

Every test runs one scenario from tools/repro/scenarios through the
run-and-check mode of ``python -m tools.repro.run`` (same code path) and
asserts on the exit status and the key text of the output.

make test runs each scenario once, under torchrun (scenarios that only make
sense under torch.multiprocessing.spawn run under spawn), to keep the lab
within minutes on 2 cores; the corpus holds both launchers' output, and
FAULTLINE_LAB_ALL_LAUNCHERS=1 runs every scenario under spawn as well.

No Django here: these tests need torch==2.13.0 (see tools/repro/README.md)
and skip cleanly when it is not installed.
"""

import re
from pathlib import Path

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, SCENARIOS, run_and_check

pytestmark = NEEDS_TORCH
from tools.repro.run import CORPUS_DIR  # noqa: E402

# --- ddp-expect-autograd-hooks-assert (the seed entry) ----------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_with_first_backward_under_no_sync_trips_expect_autograd_hooks(
    launcher,
):
    result = run_and_check("hooks_static_graph_no_sync_first_step", launcher)
    assert 'reducer.cpp":' in result.output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_with_two_separate_backwards_in_first_no_sync_step_trips_the_assert(
    launcher,
):
    run_and_check("hooks_static_graph_no_sync_two_losses", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_with_forward_under_no_sync_and_backward_outside_trips_the_assert(
    launcher,
):
    run_and_check("hooks_static_graph_no_sync_backward_outside", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_logged_run_shows_info_start_then_early_warning_then_error_carrying_the_assert(
    launcher,
):
    output = run_and_check("hooks_static_graph_no_sync_logging", launcher).output
    first_info = output.index(" INFO ")
    first_warning = output.index(" WARNING ")
    first_error = output.index(" ERROR ")
    assert first_info < first_warning < first_error
    assert "expect_autograd_hooks_ INTERNAL ASSERT FAILED" in output[first_error:]


@pytest.mark.slow
@LAB_LAUNCHERS
def test_side_by_side_run_shows_the_assert_under_no_sync_and_the_control_working(
    launcher,
):
    run_and_check("hooks_with_and_without_no_sync", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_with_reentrant_checkpoint_and_no_no_sync_does_not_trip_the_assert(launcher):
    output = run_and_check("hooks_static_graph_reentrant_checkpoint", launcher).output
    assert "expect_autograd_hooks_" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_dropping_static_graph_lets_no_sync_accumulation_complete_with_equal_gradients(launcher):
    run_and_check("hooks_fixed_drop_static_graph", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_one_synchronised_step_before_the_first_no_sync_avoids_the_assert(
    launcher,
):
    run_and_check("hooks_fixed_sync_first_step", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_syncing_every_micro_batch_with_static_graph_completes_with_equal_gradients(launcher):
    run_and_check("hooks_fixed_sync_every_micro_batch", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_summing_two_losses_into_one_backward_with_static_graph_completes(
    launcher,
):
    run_and_check("hooks_fixed_sum_losses", launcher)


# --- ddp-mark-variable-ready-twice --------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_reentrant_checkpoint_of_the_same_layer_twice_marks_a_variable_ready_twice(
    launcher,
):
    output = run_and_check("twice_checkpoint_same_layer_twice", launcher).output
    assert "expect_autograd_hooks_" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_two_losses_sharing_a_trunk_backwarded_separately_mark_a_variable_ready_twice(
    launcher,
):
    run_and_check("twice_two_losses_shared_trunk", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_non_reentrant_checkpoint_of_the_same_layer_twice_completes_with_equal_gradients(launcher):
    run_and_check("twice_fixed_non_reentrant_checkpoint", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_summing_losses_that_share_a_trunk_into_one_backward_completes(
    launcher,
):
    run_and_check("twice_fixed_sum_losses", launcher)


# --- ddp-static-graph-graph-changed -------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_param_unused_in_first_iteration_then_used_raises_graph_changed(launcher):
    run_and_check("graph_changed_param_unused_first_iteration", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_static_graph_two_separate_backwards_raise_graph_changed_in_iteration_two(
    launcher,
):
    output = run_and_check("graph_changed_static_graph_two_losses", launcher).output
    assert "step 0 done" in output
    assert "expect_autograd_hooks_" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_handles_a_param_first_used_in_iteration_two(
    launcher,
):
    run_and_check("graph_changed_fixed_find_unused_parameters", launcher)


# --- ddp-unused-params-prior-reduction ----------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_unused_parameter_fails_the_next_forward_with_prior_reduction_error(
    launcher,
):
    output = run_and_check("unused_param_no_find_unused", launcher).output
    assert "step 0 done" in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_prior_reduction_error_names_the_unused_parameters_with_debug_info(
    launcher,
):
    output = run_and_check("unused_param_debug_info", launcher).output
    assert "unused.bias, unused.weight" in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_find_unused_parameters_fixes_the_unused_parameter_failure(launcher):
    run_and_check("unused_fixed_find_unused_parameters", launcher)


# --- ddp-silent-unsynced-backward ---------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_second_backward_with_retain_graph_exits_0_but_leaves_gradients_different(
    launcher,
):
    run_and_check("silent_second_backward_retain_graph", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_forward_under_no_sync_with_backward_outside_raises_nothing_and_never_syncs(
    launcher,
):
    output = run_and_check("silent_no_sync_forward_inside_backward_outside", launcher).output
    assert "expect_autograd_hooks_" not in output


@pytest.mark.slow
@LAB_LAUNCHERS
def test_one_backward_per_forward_with_forward_inside_no_sync_keeps_gradients_equal(
    launcher,
):
    run_and_check("silent_fixed_single_backward", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_shape_mismatch_inside_a_ddp_forward_fails_with_the_plain_mat1_mat2_error(launcher):
    output = run_and_check("dev_shape_mismatch_in_ddp_forward", launcher).output
    assert "reducer.cpp" not in output


# --- negatives: failures outside the knowledge base ---------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_missing_module_at_the_top_of_the_script_fails_before_any_ddp_code(launcher):
    output = run_and_check("neg_import_error", launcher).output
    if launcher == "torchrun":
        assert "ChildFailedError" in output
    else:
        assert "ProcessRaisedException" not in output  # the parent dies before spawning


@pytest.mark.slow
@LAB_LAUNCHERS
def test_keyerror_in_a_dataloader_worker_under_ddp_is_reported_as_caught_keyerror(launcher):
    run_and_check("neg_dataloader_worker_keyerror", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_torch_distributed_debug_detail_segfaults_in_ddp_construction_on_torch_2_13_cpu(launcher):
    run_and_check("neg_debug_detail_segfault", launcher)


# --- the lab itself -----------------------------------------------------------------------


@pytest.mark.slow
def test_every_scenario_module_is_exercised_by_a_lab_test():
    called, listed = set(), set()
    for test_file in Path(__file__).parent.glob("test_*.py"):
        text = test_file.read_text("utf-8")
        called |= set(re.findall(r'run_and_check\("(\w+)"', text))
        # Scenarios a parametrised test passes to run_and_check by name, a list on one line or
        # one name a line.
        listed |= set(re.findall(r'"(\w+)"', text)) & set(SCENARIOS)
    assert set(SCENARIOS) - called - listed == set()
    assert called - set(SCENARIOS) == set()


@pytest.mark.slow
def test_every_captured_scenario_has_a_corpus_file_for_each_launcher_containing_its_key_text():
    missing, without_key_text = [], []
    for scenario in SCENARIOS.values():
        if not scenario.captured:
            continue
        for launcher in scenario.launchers:
            path = CORPUS_DIR / scenario.corpus_folder / f"{scenario.variant}-{launcher}.txt"
            if not path.exists():
                missing.append(str(path))
                continue
            text = path.read_text(encoding="utf-8")
            without_key_text += [f"{path}: {key!r}" for key in scenario.key_text if key not in text]
    assert missing == []
    assert without_key_text == []


@pytest.mark.slow
def test_corpus_directories_are_knowledge_base_slugs_or_negative():
    declared = {s.corpus_folder for s in SCENARIOS.values() if s.captured}
    on_disk = {p.name for p in CORPUS_DIR.iterdir() if p.is_dir()}
    assert on_disk - declared == set()
