"""The distributed entries' fixes in the real frameworks (Lightning 2.6.6, the Hugging Face
Trainer of transformers 5.24.0, Accelerate 1.15.0) on torch 2.13.0, CPU: each broken scenario
is the user's configuration failing with the entry's text, captured into tests/corpus/; each
fixed one runs the entry's snippet for that framework as the wizard renders it, on two
processes under torchrun, with equal gradients across ranks at every step where it trains.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

# --- ddp-comm-hook-twice: a framework's hook and the script's own ------------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_comm_hook_kwargs_and_a_second_hook_of_the_script_are_refused():
    run_and_check("fw_accelerate_dista_comm_hook_twice", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_accelerate_snippet_one_comm_hook_trains_with_equal_gradients():
    run_and_check("fw_accelerate_dista_fixed_one_comm_hook", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_registers_no_strategy_comm_hook_on_cpu_so_the_scripts_is_the_only_one():
    run_and_check("fw_lightning_dista_comm_hook_on_cpu", "torchrun")


# --- ddp-device-ids-misuse: device_ids for a module on the CPU ---------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_lightning_dista_device_ids_by_hand", "fw_accelerate_dista_device_ids_by_hand"]
)
def test_a_cpu_module_wrapped_by_hand_with_device_ids_is_refused_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_device_ids_from_strategy",
        "fw_accelerate_dista_fixed_prepare_picks_device_ids",
    ],
)
def test_snippets_leaving_device_ids_to_the_framework_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-param-count-mismatch: a layer frozen on one rank only ---------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_dista_frozen_on_rank_zero", "fw_accelerate_dista_frozen_on_main_process"],
)
def test_an_encoder_frozen_on_rank_zero_only_is_refused_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_freeze_in_configure_model",
        "fw_accelerate_dista_fixed_freeze_on_every_process",
    ],
)
def test_snippets_freezing_on_every_rank_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-param-shape-mismatch: a model sized per node ------------------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_size_from_this_node",
        "fw_hf_trainer_dista_vocab_from_this_node",
        "fw_accelerate_dista_size_from_this_node",
    ],
)
def test_a_model_sized_by_each_node_is_refused_on_the_rank_that_differs_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_sizes_from_arguments",
        "fw_hf_trainer_dista_fixed_same_checkpoint_and_tokenizer",
        "fw_accelerate_dista_fixed_config_on_every_process",
    ],
)
def test_snippets_building_the_same_model_on_every_rank_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- ddp-gradient-as-bucket-view-detach: bucket views detached in place ------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_dista_detach_bucket_view", "fw_accelerate_dista_detach_bucket_view"],
)
def test_bucket_view_gradients_detached_in_place_are_refused_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_zero_grad_bucket_view",
        "fw_accelerate_dista_fixed_zero_grad_bucket_view",
    ],
)
def test_snippets_with_bucket_views_cleared_by_the_optimizer_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- nccl-no-gpu: NCCL asked for on a machine without a GPU ------------------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_nccl_backend_on_a_cpu_torch_is_refused_at_init_process_group():
    run_and_check("fw_lightning_dista_nccl_on_cpu", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_backend_for_device",
        "fw_accelerate_dista_fixed_backend_for_device",
    ],
)
def test_snippets_leaving_the_backend_to_the_framework_train_on_gloo_with_equal_gradients(module):
    run_and_check(module, "torchrun")


# --- syncbn-misuse: SyncBatchNorm on a CPU ----------------------------------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_sync_batchnorm_on_cpu_is_refused_when_the_strategy_wraps_the_module():
    run_and_check("fw_lightning_dista_sync_batchnorm_on_cpu", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_sync_batchnorm_only_with_cuda_trains_with_equal_gradients():
    run_and_check("fw_lightning_dista_fixed_syncbn_gpu_only", "torchrun")


# --- ddp-state-dict-module-prefix: the wrapper's keys saved -----------------------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_saved_from_wrapper",
        "fw_hf_trainer_dista_saved_from_wrapper",
        "fw_accelerate_dista_saved_from_wrapper",
    ],
)
def test_the_ddp_wrappers_state_dict_is_refused_by_a_plain_model_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_dista_fixed_load_from_checkpoint",
        "fw_hf_trainer_dista_fixed_save_model",
        "fw_accelerate_dista_fixed_save_unwrapped",
    ],
)
def test_snippets_saving_the_inner_module_give_keys_a_plain_model_loads(module):
    run_and_check(module, "torchrun")
