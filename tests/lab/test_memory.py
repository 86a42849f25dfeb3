"""The reproduction lab for the memory family (mem_* scenarios): real host out-of-memory failures
on this CPU machine and the entry's fixes under the same limits.

The kernel's out-of-memory kill needs a memory cgroup the lab may create (cgroup v1, root); where
the machine has none, those tests are skipped rather than faked. The address-space limit
(RLIMIT_AS) works for any user. CUDA and MPS out-of-memory need their devices: their entries rely
on field pastes (tests/field/)."""

import multiprocessing

import pytest

from tests.lab.lab import LAB_LAUNCHERS, NEEDS_TORCH, run_and_check
from tools.repro.mem_support import MIB, join_memory_cgroup, memory_cgroup_available

pytestmark = NEEDS_TORCH

NEEDS_MEMORY_CGROUP = pytest.mark.skipif(
    not memory_cgroup_available(),
    reason="the kernel's OOM kill needs a writable cgroup v1 memory controller (root)",
)


def _join_and_report(errors):
    try:
        join_memory_cgroup(64 * MIB)
    except OSError as error:
        errors.put(repr(error))


@NEEDS_MEMORY_CGROUP
def test_ranks_joining_their_cgroups_at_once_never_remove_each_others():
    # Each join sweeps the empty lab cgroups; a sibling's, between its mkdir and its move, is
    # empty too. Unlocked, about one round in eleven lost a cgroup (ENODEV, as on CI).
    context = multiprocessing.get_context("fork")
    errors = context.Queue()
    for _ in range(40):
        ranks = [context.Process(target=_join_and_report, args=(errors,)) for _ in range(4)]
        for rank in ranks:
            rank.start()
        for rank in ranks:
            rank.join()
    assert errors.empty(), errors.get()


# --- host-out-of-memory-killed --------------------------------------------------------------


@pytest.mark.slow
@NEEDS_MEMORY_CGROUP
@LAB_LAUNCHERS
def test_every_rank_loading_the_checkpoint_is_killed_by_the_oom_killer(launcher):
    output = run_and_check("mem_checkpoint_loaded_by_every_rank", launcher).output
    # Killed, not raised: no worker printed an exception of its own.
    assert "]: Traceback" not in output and "terminated with the following error" not in output


@pytest.mark.slow
@NEEDS_MEMORY_CGROUP
def test_a_memory_mapped_checkpoint_loads_under_the_same_limit():
    run_and_check("mem_checkpoint_fixed_mmap", "torchrun")


@pytest.mark.slow
@LAB_LAUNCHERS
def test_a_dataset_stacked_in_every_rank_fails_in_the_cpu_allocator(launcher):
    run_and_check("mem_dataset_materialised_in_ram", launcher)


@pytest.mark.slow
def test_the_same_dataset_read_by_a_dataloader_trains_under_the_same_limit():
    run_and_check("mem_dataset_fixed_streamed", "torchrun")


@pytest.mark.slow
@NEEDS_MEMORY_CGROUP
@LAB_LAUNCHERS
def test_a_dataloader_worker_that_caches_every_sample_is_killed(launcher):
    output = run_and_check("mem_dataloader_workers_keep_samples", launcher).output
    assert "is killed by signal: Killed" in output or "exited unexpectedly" in output, output
