"""The reproduction lab for the process-group, rendezvous and launcher entries (g3_* scenarios).

Same style as test_reproductions.py: every test runs one scenario for real through
``tools.repro.run.run_scenario`` and asserts it behaves as its SCENARIO declares.  Broken
scenarios run under every launcher they declare; fixed ones under torchrun, except where the
fix is only visible under the lab's "spawn" launcher (a module that starts a launcher itself).
"""

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- dist-default-pg-not-initialized ------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_ddp_before_init_process_group_says_the_default_group_is_not_initialized(launcher):
    run_and_check("g3_pg_not_initialized_ddp_before_init", launcher)


@pytest.mark.slow
def test_init_process_group_before_ddp_trains_with_equal_gradients():
    run_and_check("g3_pg_fixed_init_before_ddp", "torchrun")


# --- dist-init-twice ----------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_second_init_process_group_is_refused(launcher):
    run_and_check("g3_init_twice", launcher)


@pytest.mark.slow
def test_init_guarded_by_is_initialized_reuses_the_group():
    run_and_check("g3_init_twice_fixed_guard", "torchrun")


# --- dist-env-rendezvous-missing-var ------------------------------------------------------


@pytest.mark.slow
def test_torchrun_style_script_started_with_python_misses_rank():
    run_and_check("g3_env_rendezvous_rank_missing", "spawn")


@pytest.mark.slow
def test_spawned_workers_without_master_addr_miss_it():
    run_and_check("g3_env_rendezvous_master_addr_missing", "spawn")


@pytest.mark.slow
def test_torchrun_provides_the_env_rendezvous_variables():
    run_and_check("g3_env_rendezvous_fixed", "torchrun")


# --- dist-address-in-use ------------------------------------------------------------------


@pytest.mark.slow
def test_rank_zero_store_cannot_listen_on_a_port_already_held():
    run_and_check("g3_address_in_use_port_held", "spawn")


@pytest.mark.slow
def test_torchrun_on_a_busy_master_port_fails_in_its_rendezvous():
    output = run_and_check("g3_address_in_use_torchrun_busy_port", "spawn").output
    assert "static_tcp_rendezvous.py" in output


@pytest.mark.slow
def test_torchrun_with_rdzv_endpoint_port_0_trains_while_the_usual_port_is_busy():
    # Under "spawn" the module holds the port and starts torchrun itself: the fix shows there.
    run_and_check("g3_address_in_use_fixed_free_port", "spawn")


# --- dist-store-timeout -------------------------------------------------------------------


@pytest.mark.slow
def test_world_size_larger_than_the_processes_started_times_out_in_rank_zero_store():
    run_and_check("g3_store_timeout_world_size_too_large", "spawn")


@pytest.mark.slow
def test_a_rank_that_cannot_reach_the_master_times_out_connecting():
    run_and_check("g3_store_timeout_no_server", "spawn")


@pytest.mark.slow
def test_world_size_equal_to_the_processes_started_trains():
    run_and_check("g3_store_timeout_fixed_nprocs", "torchrun")


# --- dist-launch-local-rank-arg -----------------------------------------------------------


@pytest.mark.slow
def test_legacy_launch_passes_local_rank_that_a_strict_argparse_rejects():
    output = run_and_check("g3_launch_local_rank_arg", "spawn").output
    assert "FutureWarning" in output


@pytest.mark.slow
def test_accepting_both_local_rank_spellings_trains_under_the_legacy_launcher():
    # Under "spawn" the module starts torch.distributed.launch itself: the fix shows there.
    run_and_check("g3_launch_local_rank_fixed", "spawn")


# --- torchrun-child-failed ----------------------------------------------------------------


@pytest.mark.slow
def test_a_worker_exiting_without_traceback_leaves_only_the_child_failed_summary():
    output = run_and_check("g3_child_failed_os_exit", "torchrun").output
    assert "Traceback (most recent call last)" in output  # torchrun's own, not the worker's
    assert "[rank1]:" not in output


@pytest.mark.slow
def test_record_puts_the_worker_exception_into_the_child_failed_summary():
    run_and_check("g3_child_failed_record", "torchrun")


# --- nccl-no-gpu --------------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_nccl_backend_without_a_gpu_is_refused(launcher):
    run_and_check("g3_nccl_no_gpu", launcher)


@pytest.mark.slow
def test_backend_chosen_from_the_hardware_trains_on_cpu():
    run_and_check("g3_nccl_fixed_backend_for_device", "torchrun")


# --- syncbn-misuse ------------------------------------------------------------------------


@pytest.mark.slow
@LAB_LAUNCHERS
def test_ddp_refuses_a_cpu_model_with_syncbatchnorm(launcher):
    run_and_check("g3_syncbn_cpu_ddp", launcher)


@pytest.mark.slow
def test_converting_to_syncbatchnorm_only_on_gpu_trains_on_cpu():
    run_and_check("g3_syncbn_fixed_convert_on_gpu_only", "torchrun")
