"""The lab's fixed runs execute the fix a user would copy: each fixed scenario names the entry's
snippet it runs (tools/repro/snippets.py renders it from the entry's file, as the wizard does),
and those that still run a hand-written twin say why. Reading the declarations needs no torch;
the runs themselves are the lab's tests of each scenario."""

from tools.repro.scenarios import all_scenarios
from tools.repro.snippets import fix_snippet
from tools.repro.snippets import taxonomy as lab_taxonomy

FIXED = [s for s in all_scenarios() if s.role == "fixed"]
NOT_YET = "a hand-written twin of the fix, written before scenarios could run snippets"
# Fixed scenarios that still run a hand-written twin of the fix, and why.
TWINS = {
    "g1_backward_second_time_fixed": NOT_YET,
    "g1_checkpoint_fixed_non_reentrant": NOT_YET,
    "g1_static_graph_fixed_find_unused": NOT_YET,
    "g1_twice_fixed_non_reentrant_find_unused": NOT_YET,
    "g2_fixed_find_unused_off": NOT_YET,
    "g2_fixed_find_unused_parameters_rank_branch": NOT_YET,
    "g2_fixed_join_uneven_inputs": NOT_YET,
    "g2_fixed_one_comm_hook": NOT_YET,
    "g2_fixed_penalty_with_autograd_grad": NOT_YET,
    "g2_fixed_same_accumulation_window": NOT_YET,
    "g2_fixed_static_graph_in_constructor": NOT_YET,
    "g2_fixed_zero_grad_bucket_view": NOT_YET,
    "g3_address_in_use_fixed_free_port": NOT_YET,
    "g3_env_rendezvous_fixed": NOT_YET,
    "g3_launch_local_rank_fixed": NOT_YET,
    "g3_nccl_fixed_backend_for_device": NOT_YET,
    "g3_pg_fixed_init_before_ddp": NOT_YET,
    "g3_store_timeout_fixed_nprocs": NOT_YET,
    "g3_syncbn_fixed_convert_on_gpu_only": NOT_YET,
    "g4_fixed_collective_in_time": NOT_YET,
    "g4_fixed_compiled_autograd_python_reducer": NOT_YET,
    "g4_fixed_device_ids_none_on_cpu": NOT_YET,
    "g4_fixed_do_not_wrap_frozen": NOT_YET,
    "g4_fixed_lazy_dummy_forward": NOT_YET,
    "g4_fixed_same_collectives": NOT_YET,
    "g4_fixed_same_param_shapes": NOT_YET,
    "g4_fixed_same_trainable_params": NOT_YET,
    "g4_fixed_state_dict_prefix": NOT_YET,
    "graph_changed_fixed_find_unused_parameters": NOT_YET,
    "hooks_fixed_drop_static_graph": NOT_YET,
    "hooks_fixed_sum_losses": NOT_YET,
    "hooks_fixed_sync_every_micro_batch": NOT_YET,
    "hooks_fixed_sync_first_step": NOT_YET,
    "silent_fixed_single_backward": NOT_YET,
    "twice_fixed_non_reentrant_checkpoint": NOT_YET,
    "twice_fixed_sum_losses": NOT_YET,
    "unused_fixed_find_unused_parameters": NOT_YET,
}


def name(scenario):
    return scenario.module.rsplit(".", 1)[-1]


def test_each_fixed_scenario_names_a_snippet_its_entry_has():
    entries, _ = lab_taxonomy()
    missing = []
    for scenario in FIXED:
        if scenario.snippet:
            fix, framework = scenario.snippet
            snippets = {
                (f["key"], s["framework"])
                for f in entries[scenario.slug]["fixes"]
                for s in f["snippets"]
            }
            if (fix, framework) not in snippets:
                missing.append(f"{name(scenario)}: {scenario.slug} has no {fix}/{framework}")
    assert missing == []


def test_fixed_scenarios_run_their_entrys_snippet_or_say_why_not():
    assert sorted(name(s) for s in FIXED if not s.snippet) == sorted(TWINS)


def test_a_snippet_renders_with_the_answers_as_the_wizard_carries_them():
    code = fix_snippet("ddp-expect-autograd-hooks-assert", "align-no-sync", accumulation_steps="8")
    assert "accumulation_steps = 8" in code
    assert "{{" not in code and "{%" not in code
