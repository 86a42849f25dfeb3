"""The reproduction lab for the network family (NCCL and the network, net_* scenarios).

Every test runs one scenario for real through ``tools.repro.run.run_scenario`` and asserts it
behaves as its SCENARIO declares. These scenarios start their own torchrun agents (one per
"node", all on 127.0.0.1) or their own processes, because a rank that dies under a single
launcher is terminated with its survivors before they can report the lost connection; so each
runs under the lab's "spawn" launcher only (plain ``python -m``), broken and fixed alike.
"""

import pytest

from tests.lab.lab import NEEDS_TORCH, run_and_check

pytestmark = NEEDS_TORCH

# --- dist-connection-reset-by-peer --------------------------------------------------------


@pytest.mark.slow
def test_a_crashed_rank_on_another_node_closes_the_survivors_connection():
    run_and_check("net_conn_closed_peer_node_crashed", "spawn")


@pytest.mark.slow
def test_a_crashed_store_host_fails_the_other_ranks_store_request():
    run_and_check("net_conn_closed_store_host_crashed", "spawn")


@pytest.mark.slow
def test_with_the_crashed_ranks_error_fixed_both_nodes_train():
    run_and_check("net_conn_fixed_peer_error_fixed", "spawn")


# --- rendezvous-connection-error ----------------------------------------------------------


@pytest.mark.slow
def test_an_endpoint_nobody_serves_gives_a_rendezvous_connection_error():
    run_and_check("net_rdzv_connection_error_no_host", "spawn")


@pytest.mark.slow
def test_an_endpoint_port_owned_by_another_program_gives_a_rendezvous_connection_error():
    run_and_check("net_rdzv_connection_error_port_not_a_store", "spawn")


@pytest.mark.slow
def test_both_nodes_on_the_host_nodes_endpoint_complete_the_rendezvous():
    run_and_check("net_rdzv_fixed_host_reachable", "spawn")


# --- rendezvous-timeout -------------------------------------------------------------------


@pytest.mark.slow
def test_two_nodes_asked_for_and_one_started_times_out():
    run_and_check("net_rdzv_timeout_one_node", "spawn")


@pytest.mark.slow
def test_c10d_with_master_addr_and_no_endpoint_waits_alone_and_times_out():
    run_and_check("net_rdzv_timeout_c10d_without_endpoint", "spawn")


@pytest.mark.slow
def test_standalone_on_one_machine_does_not_wait_for_a_second_node():
    run_and_check("net_rdzv_fixed_standalone", "spawn")
