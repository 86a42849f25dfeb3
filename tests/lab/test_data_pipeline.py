"""The reproduction lab for the data-pipeline family (data_* scenarios): DataLoader failures
reproduced for real on this CPU machine, and the entries' own snippets passing under the same
limits.

A small /dev/shm needs a private mount namespace (root); where the machine does not allow one,
those tests are skipped rather than faked. The worker killed by the out-of-memory killer
(dataloader-worker-killed) is the memory family's cgroup scenario
mem_dataloader_workers_keep_samples, tested in test_memory.py."""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check
from tools.repro.data_support import shm_namespace_available

pytestmark = NEEDS_TORCH

NEEDS_SHM_NAMESPACE = pytest.mark.skipif(
    not shm_namespace_available(),
    reason="a small /dev/shm needs a private mount namespace with a tmpfs (root)",
)


@pytest.mark.slow
@NEEDS_SHM_NAMESPACE
@LAB_LAUNCHERS
def test_workers_fill_a_small_dev_shm(launcher):
    run_and_check("data_shm_small_tmpfs", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_the_file_descriptor_strategy_runs_out_of_open_files(launcher):
    run_and_check("data_too_many_open_files", launcher)


@pytest.mark.slow
@NEEDS_SHM_NAMESPACE
def test_fewer_batches_in_flight_and_the_file_system_strategy_fix_them():
    run_and_check("data_fixed_loader_settings", "torchrun")


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_script_without_a_main_guard_fails_under_spawn(launcher):
    run_and_check("data_spawn_no_main_guard", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_lambda_collate_fn_cannot_be_pickled_for_spawn(launcher):
    run_and_check("data_spawn_pickle_lambda", launcher)


@pytest.mark.slow
@LAB_LAUNCHERS
def test_default_collate_cannot_stack_sequences_of_two_lengths(launcher):
    run_and_check("data_collate_variable_sizes", launcher)


@pytest.mark.slow
def test_padding_a_module_level_collate_fn_and_a_main_guard_fix_them():
    run_and_check("data_fixed_spawn", "torchrun")
