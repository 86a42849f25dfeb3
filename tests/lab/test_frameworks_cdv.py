"""The compile and devices entries' fixes in the real frameworks (Lightning 2.6.6, the Hugging
Face Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU: each broken
scenario is the user's configuration failing with the entry's text, captured into
tests/corpus/; each fixed one runs the entry's snippet for that framework as the wizard renders
it, on two processes under torchrun, with equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- inductor-backend-compiler-failed: Inductor on a machine without a C++ compiler --------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_cdv_inductor_no_cxx",
        "fw_hf_trainer_cdv_inductor_no_cxx",
        "fw_accelerate_cdv_inductor_no_cxx",
    ],
)
def test_inductor_without_a_cxx_compiler_fails_the_first_step_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_cdv_fixed_suppress_errors",
        "fw_hf_trainer_cdv_fixed_suppress_errors",
        "fw_accelerate_cdv_fixed_suppress_errors",
    ],
)
def test_snippets_suppressing_errors_train_in_eager_mode_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- dynamo-unsupported: fullgraph=True over code Dynamo cannot trace into one graph -------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_with_a_network_compiled_fullgraph_refuses_its_data_dependent_branch():
    run_and_check("fw_hf_trainer_cdv_own_compile_fullgraph", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_fullgraph_plugin_fails_in_ddps_own_forward_before_the_model():
    output = run_and_check("fw_accelerate_cdv_fullgraph_ddp_forward", "torchrun").output
    assert "Data-dependent branching" not in output


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_hf_trainer_cdv_fixed_trainer_compiles", "fw_accelerate_cdv_fixed_fullgraph_off"],
)
def test_snippets_without_fullgraph_train_through_the_graph_break_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- dynamo-recompile-limit: one compiled step over more lengths than the limit -------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_module_compiled_with_static_shapes_hits_the_recompile_limit():
    run_and_check("fw_lightning_cdv_recompile_limit", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_raising_the_recompile_limit_compiles_every_length_once():
    run_and_check("fw_lightning_cdv_fixed_raise_recompile_limit", "torchrun")


# --- tensors-on-different-devices: a tensor made on another device than the module's --------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_mask_made_on_another_device_is_refused_in_training_step():
    run_and_check("fw_lightning_cdv_mask_on_other_device", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_making_the_mask_on_self_device_trains_with_equal_gradients():
    run_and_check("fw_lightning_cdv_fixed_mask_on_self_device", "torchrun")
