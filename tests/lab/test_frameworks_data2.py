"""The data-pipeline and numerics entries' fixes in the real frameworks (Lightning 2.6.6, the
Hugging Face Trainer of transformers 5.24.0) on torch 2.13.0, CPU: each broken scenario is the
user's configuration failing with the entry's text under the limit that breaks it (a small
/dev/shm, a low open-file limit, a memory cgroup, the spawn start method), captured into
tests/corpus/; each fixed one runs the entry's snippet for that framework as the wizard renders
it, on two processes under torchrun, with equal gradients across ranks at every step.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check
from tools.repro.data_support import shm_namespace_available
from tools.repro.mem_support import memory_cgroup_available

NEEDS_SHM_NAMESPACE = pytest.mark.skipif(
    not shm_namespace_available(), reason="needs root to mount a private /dev/shm"
)
NEEDS_MEMORY_CGROUP = pytest.mark.skipif(
    not memory_cgroup_available(), reason="needs a writable cgroup v1 memory controller"
)

# --- dataloader-shared-memory: batches in flight in a small /dev/shm ------------------------


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_SHM_NAMESPACE
def test_lightning_workers_fail_to_place_their_batches_in_a_small_dev_shm():
    run_and_check("fw_lightning_data2_small_shm", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_SHM_NAMESPACE
def test_hf_trainer_workers_print_no_space_left_and_the_loop_waits_for_the_lost_batch():
    output = run_and_check("fw_hf_trainer_data2_small_shm", "torchrun").output
    assert "Timeout (0:00:20)!" in output


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_SHM_NAMESPACE
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_data2_fixed_fewer_batches_in_flight",
        "fw_hf_trainer_data2_fixed_fewer_batches_in_flight",
    ],
)
def test_snippets_with_one_worker_and_prefetch_factor_one_train_in_the_small_dev_shm(module):
    run_and_check(module, "torchrun")


# --- multiprocessing-spawn-pickle: what the spawned workers are sent must pickle ------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_loader_with_a_lambda_collate_fn_cannot_be_sent_to_a_spawned_worker():
    run_and_check("fw_lightning_data2_lambda_collate_spawn", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_s_module_level_collate_reaches_spawned_workers_and_trains():
    run_and_check("fw_lightning_data2_fixed_module_level_collate", "torchrun")


# --- loss-nan-or-inf: a lower learning rate, warmed up, gradients clipped --------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_lower_lr_with_a_warmup_ratio_trains_with_finite_losses():
    run_and_check("fw_hf_trainer_data2_fixed_lower_learning_rate", "torchrun")


# --- dataloader-too-many-open-files: kept batches under a low open-file limit ---------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_data2_open_files_low_ulimit",
        "fw_hf_trainer_data2_open_files_low_ulimit",
    ],
)
def test_kept_batches_run_out_of_open_files_under_the_file_descriptor_strategy(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_data2_fixed_file_system_strategy",
        "fw_hf_trainer_data2_fixed_file_system_strategy",
    ],
)
def test_snippets_file_system_strategy_deliver_every_kept_batch_under_the_limit(module):
    run_and_check(module, "torchrun")


# --- autograd-anomaly-nan: Lightning's detect_anomaly names the first NaN -------------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_detect_anomaly_names_the_backward_that_returned_nan():
    run_and_check("fw_lightning_data2_anomaly_nan_residual_norm", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_detect_anomaly_trains_with_equal_gradients_where_all_is_finite():
    run_and_check("fw_lightning_data2_fixed_detect_anomaly_finite", "torchrun")


# --- loss-nan-or-inf: Lightning's EarlyStopping stops a run whose loss is NaN ---------------


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_early_stopping_reports_the_nan_loss_and_stops_the_run():
    run_and_check("fw_lightning_data2_loss_nan_early_stop", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_lightning_snippet_early_stopping_lets_a_clamped_loss_train_with_equal_gradients():
    run_and_check("fw_lightning_data2_fixed_guard_the_loss", "torchrun")


# --- collate-tensor-size-mismatch: the Trainer's default collator stacks input_ids ----------


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_default_data_collator_cannot_stack_sequences_of_two_lengths():
    run_and_check("fw_hf_trainer_data2_collate_two_lengths", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_collator_with_padding_pads_every_batch_and_trains():
    run_and_check("fw_hf_trainer_data2_fixed_collator_with_padding", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_lambda_data_collator_cannot_be_sent_to_a_spawned_worker():
    run_and_check("fw_hf_trainer_data2_lambda_collator_spawn", "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
def test_hf_trainer_snippet_collator_object_reaches_spawned_workers_and_trains():
    run_and_check("fw_hf_trainer_data2_fixed_collator_object_spawn", "torchrun")


# --- dataloader-worker-killed: a worker's cache outgrows a memory cgroup --------------------


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_MEMORY_CGROUP
@pytest.mark.parametrize(
    "module",
    ["fw_lightning_data2_worker_keeps_samples", "fw_hf_trainer_data2_worker_keeps_samples"],
)
def test_a_worker_caching_every_sample_is_killed_by_the_kernel_in_each_framework(module):
    output = run_and_check(module, "torchrun").output
    # Which wording the rank prints depends on what notices the dead worker first (seen on CI).
    assert "is killed by signal: Killed" in output or "exited unexpectedly" in output, output


@pytest.mark.slow
@NEEDS_TORCH
@NEEDS_MEMORY_CGROUP
@pytest.mark.parametrize(
    "module",
    [
        "fw_lightning_data2_fixed_no_per_worker_copies",
        "fw_hf_trainer_data2_fixed_no_per_worker_copies",
    ],
)
def test_snippets_one_worker_without_a_cache_train_under_the_same_memory_limit(module):
    run_and_check(module, "torchrun")


# --- multiprocessing-spawn-main-guard: training at module level under spawn ----------------


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_lightning_data2_spawn_no_main_guard", "fw_hf_trainer_data2_spawn_no_main_guard"]
)
def test_a_script_training_at_module_level_breaks_its_spawned_worker_in_each_framework(module):
    run_and_check(module, "torchrun")


@pytest.mark.slow
@NEEDS_TORCH
@pytest.mark.parametrize(
    "module", ["fw_lightning_data2_fixed_main_guard", "fw_hf_trainer_data2_fixed_main_guard"]
)
def test_snippets_training_under_the_main_guard_train_with_equal_gradients(module):
    run_and_check(module, "torchrun")
