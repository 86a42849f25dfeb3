"""The lab's fixed runs execute the fix a user would copy: each fixed scenario names the entry's
snippet it runs (tools/repro/snippets.py renders it from the entry's file, as the wizard does),
and those that still run a hand-written twin say why. Reading the declarations needs no torch;
the runs themselves are the lab's tests of each scenario."""

import pytest

from tools.repro.scenarios import all_scenarios
from tools.repro.snippets import fix_snippet
from tools.repro.snippets import taxonomy as lab_taxonomy

FIXED = [s for s in all_scenarios() if s.role == "fixed"]
# Fixed scenarios that still run a hand-written twin of the fix, and why.
TWINS = {
    "hooks_fixed_sync_every_micro_batch": "no snippet of the entry keeps static_graph and syncs "
    "every micro-batch (the framework snippets only name the option)",
    "hooks_fixed_sync_first_step": "syncing the first micro-batch is in the static-graph-off "
    "fix's note, not in a snippet",
    "g3_address_in_use_fixed_free_port": "the fix is torchrun's --rdzv-endpoint flag; the "
    "snippet's own Python starts its workers with mp.spawn, which cannot start a function "
    "that exec defined",
}


def name(scenario):
    return scenario.module.rsplit(".", 1)[-1]


@pytest.mark.content
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
