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


# The package each framework's snippets run in, as requirements-dev.txt pins it.
FRAMEWORK_PACKAGES = {
    "lightning": "lightning",
    "hf_trainer": "transformers",
    "accelerate": "accelerate",
}


def pinned_versions():
    from tools.repro.snippets import REPO_ROOT

    pins = {}
    for line in (REPO_ROOT / "requirements-dev.txt").read_text().splitlines():
        package, _, version = line.partition("==")
        pins[package.strip().lower()] = version.strip()
    return {framework: pins[package] for framework, package in FRAMEWORK_PACKAGES.items()}


def framework_snippets():
    entries, _ = lab_taxonomy()
    for slug, entry in entries.items():
        for fix in entry["fixes"]:
            for snippet in fix["snippets"]:
                if snippet["framework"] != "pytorch":
                    yield slug, fix["key"], snippet


@pytest.mark.content
def test_each_snippet_run_in_its_framework_names_the_version_it_ran_on():
    versions = pinned_versions()
    notes = {
        (slug, fix, s["framework"]): s.get("note") or "" for slug, fix, s in framework_snippets()
    }
    silent = [
        f"{name(scenario)}: {scenario.slug} {'/'.join(scenario.snippet)}"
        for scenario in FIXED
        if scenario.snippet
        and scenario.snippet[1] in versions
        and versions[scenario.snippet[1]] not in notes[(scenario.slug, *scenario.snippet)]
    ]
    assert silent == []


@pytest.mark.content
def test_every_framework_snippet_says_whether_it_ran():
    unsaid = [
        f"{slug} {fix}/{s['framework']}"
        for slug, fix, s in framework_snippets()
        if not s.get("note") or "Not yet run" in s["note"]
    ]
    assert unsaid == []
