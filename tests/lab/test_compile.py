"""The torch.compile family's reproductions (tools/repro/scenarios/comp_*.py): failures of
Dynamo and Inductor that occur on CPU, each with its fix, run on every rank under the lab's
launchers. Triton needs a GPU, so its entries have field pastes only.

The Inductor scenarios compile C++ with g++ (the build-essential of the machine); the others
trace with Dynamo only and need no compiler.
"""

import shutil

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

NEEDS_GXX = pytest.mark.skipif(shutil.which("g++") is None, reason="inductor on CPU needs g++")


# --- inductor-backend-compiler-failed --------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_inductor_without_a_cxx_compiler_fails_after_dynamo_traced_the_model(launcher):
    output = run_and_check("comp_inductor_no_cxx_compiler", launcher).output
    assert "faultline-no-such-g++" in output


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_pointing_inductor_at_an_existing_compiler_trains_compiled(launcher):
    run_and_check("comp_inductor_fixed_point_at_compiler", launcher)


# --- dynamo-recompile-limit ------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_new_lengths_under_dynamic_false_hit_the_recompile_limit(launcher):
    output = run_and_check("comp_recompile_limit_varying_lengths", launcher).output
    assert "12 lengths trained" in output  # the warning alone does not stop training


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_dynamic_shapes_compile_every_length_once(launcher):
    output = run_and_check("comp_recompile_fixed_dynamic_shapes", launcher).output
    assert "hit config.recompile_limit" not in output


# --- dynamo-unsupported ----------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_data_dependent_branch_under_fullgraph_raises_unsupported(launcher):
    run_and_check("comp_unsupported_fullgraph_data_branch", launcher)


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_torch_where_traces_as_one_graph_under_fullgraph(launcher):
    run_and_check("comp_unsupported_fixed_torch_where", launcher)


# --- dynamo-graph-break ----------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_same_branch_without_fullgraph_is_a_logged_graph_break(launcher):
    output = run_and_check("comp_graph_break_data_branch_logs", launcher).output
    assert "Traceback" not in output


@pytest.mark.slow
@NEEDS_GXX
@LAB_LAUNCHERS
def test_torch_where_leaves_nothing_to_log(launcher):
    output = run_and_check("comp_graph_break_fixed_torch_where", launcher).output
    assert "Graph Break Reason" not in output
