"""The wizard's blank start (wizard/blank.py): from nothing to one entry's checklist in a few
questions. The simulation runs on the shipped files without a database; the page tests go
through the Django test client."""

import statistics
from collections import Counter
from dataclasses import replace
from functools import cache
from urllib.parse import parse_qs, parse_qsl

import pytest
from django.conf import settings

from kb.taxonomy import lint
from kb.taxonomy.reading import TaxonomyError, read_family_parts, read_taxonomy
from tests.simulated import answers_of, wizard_of
from wizard import blank
from wizard.content import Entry, Framework
from wizard.reasoning import Hypothesis
from wizard.state import parse_candidates

MEAN_QUESTIONS, MAX_QUESTIONS = 4, 6  # to the entry
MEAN_QUESTIONS_TO_THE_RESULT = 6
SEED = "ddp-expect-autograd-hooks-assert"


@cache
def shipped():
    """The blank start over the shipped files' published entries."""
    root = settings.TAXONOMY_DIR
    taxonomy = read_taxonomy(root)
    frameworks = {f["key"]: Framework(f["key"], f["name"]) for f in taxonomy.frameworks}
    paths = blank.category_paths((c["slug"], c["name"], c["parent"]) for c in taxonomy.categories)
    entries = [
        replace(
            Entry.from_document(source.document, frameworks, ""),
            areas=paths[source.document["category"]],
            seen=source.document["symptoms"][0],
        )
        for source in taxonomy.entries
        if source.document["status"] == "published"
    ]
    return blank.Questions(entries, read_family_parts(root))


def answer(question, entry, kind, unsure=()):
    """The query someone picks who saw `entry` after `kind` happened: "not sure" to the
    questions in `unsure`."""
    if question.key in unsure:
        return question.other.query
    if question.key == blank.HAPPENED:
        return next(c.query for c in question.choices if c.query.endswith(f"={kind}"))
    if question.key == blank.NOT:
        return question.other.query
    areas = {slug for slug, _ in entry.areas}
    for choice in question.choices:
        value = parse_qs(choice.query)[blank.AREA][-1]
        if value in areas or (value.startswith("-") and not areas & set(value[1:].split(",-"))):
            return choice.query
    raise AssertionError(f"no area of {entry.slug} among {question.choices}")


def walk(questions, entry, kind, unsure=()):
    """How many blank-start questions lead to `entry`'s checklist."""
    query = ""
    for asked in range(1, 60):
        step = questions.step(questions.parse(parse_qs(query)))
        assert step.question is not None, f"{entry.slug}: a dead end at ?{query}"
        if any(choice.entry == entry.slug for choice in step.question.choices):
            return asked
        query = answer(step.question, entry, kind, unsure)
    raise AssertionError(f"{entry.slug}: never reached")


@pytest.mark.content
def test_from_nothing_to_the_cause_and_its_fix_in_six_questions_on_average(summary):
    """Every cause of every published entry, from a blank start: the questions to the entry
    (averaged over what may be said to have happened), then its checklist from the opening
    the entry's choice links to, the user sure of their own cause and not of the rest."""
    questions, wizard = shipped(), wizard_of(settings.TAXONOMY_DIR)
    journeys = []  # (right, questions)
    for entry in questions.entries:
        kinds = questions.kinds_of[entry.slug]
        to_entry = statistics.mean(walk(questions, entry, kind) for kind in kinds)
        pairs = parse_qsl(blank.opening(entry.slug))
        scope = wizard.scope(entry.slug, parse_candidates(dict(pairs)["cand"]))
        for trigger in wizard.entries[entry.slug].triggers:
            truth = answers_of(scope, Hypothesis(entry.slug, trigger.key))
            result, _, walked = wizard.walk(truth, pairs=pairs, otherwise="unsure")
            right = result["slug"] == entry.slug and trigger.key in result["causes"]
            journeys.append((right, to_entry + len(walked) - len(pairs)))
    right = sum(r for r, _ in journeys) / len(journeys)
    mean = statistics.mean(q for _, q in journeys)
    summary(
        "wizard from blank to the result",
        f"{len(journeys)} journeys: {right:.1%} right, {mean:.2f} questions on average, "
        f"at most {max(q for _, q in journeys):.1f}",
    )
    assert right >= 0.95
    assert mean <= MEAN_QUESTIONS_TO_THE_RESULT


@pytest.mark.content
def test_someone_who_knows_what_happened_reaches_their_entry_in_a_few_questions(summary):
    questions = shipped()
    walks = {
        (entry.slug, kind): walk(questions, entry, kind)
        for entry in questions.entries
        for kind in questions.kinds_of[entry.slug]
    }
    assert {slug for slug, _ in walks} == set(questions.by_slug)  # every entry shows a kind
    mean = statistics.mean(walks.values())
    longest = max(walks.values())
    spread = Counter(walks.values())
    summary(
        "wizard blank start",
        f"{len(questions.entries)} entries, {len(walks)} (entry, kind) journeys: "
        f"{mean:.2f} questions on average, at most {longest}; "
        + ", ".join(f"{n} questions: {spread[n]}" for n in sorted(spread)),
    )
    assert mean <= MEAN_QUESTIONS
    assert longest <= MAX_QUESTIONS


@pytest.mark.parametrize("unsure", [(blank.HAPPENED,), (blank.AREA,), (blank.HAPPENED, blank.AREA)])
def test_not_sure_is_never_a_dead_end(unsure):
    questions = shipped()
    for entry in questions.entries:
        walk(questions, entry, questions.kinds_of[entry.slug][0], unsure)


def test_the_first_question_is_what_happened_with_every_kind_some_entry_shows():
    step = shipped().step(blank.State())
    assert step.question.key == blank.HAPPENED
    shown = {kind for kinds in shipped().kinds_of.values() for kind in kinds}
    assert len(step.question.choices) == len(shown)
    assert step.question.other.label == "Not sure"


def test_no_question_offers_more_than_the_choices_a_phone_shows():
    questions = shipped()
    for kind in [k.key for k in questions.kinds] + [blank.UNSURE]:
        step = questions.step(questions.parse({blank.HAPPENED: [kind]}))
        assert len(step.question.choices) <= blank.MAX_CHOICES


def test_refusing_everything_left_ends_on_no_question_not_an_error():
    questions = shipped()
    state = questions.parse({blank.HAPPENED: ["hung"], blank.NOT: [",".join(questions.by_slug)]})
    step = questions.step(state)
    assert step.question is None and step.candidates == () and not state.problems


def test_unknown_values_are_problems_and_unknown_parameters_are_left_out():
    questions = shipped()
    state = questions.parse({"happened": ["bogus"], "area": ["-nowhere"], "not": ["x"], "q": ["y"]})
    assert len(state.problems) == 3
    assert questions.parse({"utm": ["1"], "happened": ["hung"]}).query() == "happened=hung"


def test_the_kind_not_sure_is_one_the_lint_refuses():
    assert lint.UNSURE == blank.UNSURE


def test_the_lint_refuses_kinds_nothing_shows_or_nobody_declares(toy_copy):
    family = toy_copy / "families" / "toy" / "family.yaml"
    family.write_text(
        family.read_text()
        + "happened:\n  - key: stalled\n    label: It stalled\n"
        + "  - key: unused\n    label: Nobody shows it\n"
        + "shows:\n  - category: toy\n    happened: [stalled, exploded]\n"
        + "  - category: no-such\n    happened: [stalled]\n"
    )
    with pytest.raises(TaxonomyError) as raised:
        read_taxonomy(toy_copy)
    problems = "\n".join(raised.value.problems)
    assert "names the kind 'exploded', which no family declares" in problems
    assert "kind 'unused': no category or entry shows it" in problems
    assert "shows: no category 'no-such'" in problems


def test_a_category_tree_gives_each_category_its_path_from_the_root():
    paths = blank.category_paths([("b", "B", "a"), ("a", "A", None), ("c", "C", "b")])
    assert paths["c"] == (("a", "A"), ("b", "B"), ("c", "C"))
    assert paths["a"] == (("a", "A"),)


# Pages


def test_the_blank_start_asks_what_happened_and_offers_the_paste_box(client, taxonomy):
    response = client.get("/wizard/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "What happened?" in html and 'href="/"' in html
    assert "?entry=" not in html  # no list of every entry
    assert html.count("<li>") < 15


def test_each_choice_is_a_plain_link_that_carries_the_state(client, taxonomy):
    html = client.get("/wizard/?happened=hung").content.decode()
    assert 'href="/wizard/?entry=' in html  # a handful of failures, each opening its checklist
    assert 'href="?happened=hung&amp;not=' in html  # "none of these"
    assert "← Back" in html


def test_htmx_gets_only_the_card(client, taxonomy):
    response = client.get("/wizard/?happened=crashed", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="card"')
    assert 'data-hx-get="?happened=crashed&amp;area=' in html


def test_answers_are_part_of_what_is_cached(client, taxonomy):
    first = client.get("/wizard/?happened=hung").content
    assert client.get("/wizard/?happened=checkpoint").content != first
    assert client.get("/wizard/?happened=hung&utm_source=x").content == first


def test_a_bad_answer_gets_a_400_that_says_why_with_the_first_question(client, taxonomy):
    response = client.get("/wizard/?happened=exploded&area=nowhere")
    html = response.content.decode()
    assert response.status_code == 400
    assert "“exploded” is not one of the kinds" in html and "What happened?" in html


def test_a_missing_entry_starts_the_questions_with_a_404(client, taxonomy):
    response = client.get("/wizard/?entry=no-such-entry")
    assert response.status_code == 404
    assert "which is not (or no longer)" in response.content.decode()


def test_picking_a_failure_opens_its_checklist(client, taxonomy):
    """As a paste of its message would: the failure the only candidate."""
    link = f'href="/wizard/?{blank.opening(SEED)}"'.replace("&", "&amp;")
    query = ""
    for _ in range(8):
        html = client.get(f"/wizard/?{query}").content.decode()
        if link in html:
            break
        query = answer_in(html, query)
    else:
        raise AssertionError(f"no link to {SEED}'s checklist after 8 answers")
    step = client.get(f"/wizard/?{blank.opening(SEED)}")
    assert step.status_code == 200
    assert 'id="question"' in step.content.decode()


def answer_in(html, query):
    """The seed entry's user's next query, which the page must offer as a link."""
    questions = shipped()
    step = questions.step(questions.parse(parse_qs(query)))
    chosen = answer(step.question, questions.by_slug[SEED], questions.kinds_of[SEED][0])
    assert f'href="?{chosen}"'.replace("&", "&amp;") in html
    return chosen


def test_the_json_mirror_starts_from_nothing_and_its_choices_lead_to_an_entry(client, taxonomy):
    body = client.get("/api/wizard/").json()
    assert body["blank"] and body["question"]["choices"]
    for _ in range(8):  # always the first choice: it must reach an entry
        choice = body["question"]["choices"][0]
        if choice["entry"]:
            assert choice["query"] == blank.opening(choice["entry"])
            step = client.get("/api/wizard/?" + choice["query"]).json()
            assert "question" in step or "result" in step
            return
        body = client.get("/api/wizard/?" + choice["query"]).json()
    raise AssertionError("no entry after 8 blank-start choices")


def test_the_json_mirror_refuses_a_blank_start_it_cannot_read(client, taxonomy):
    response = client.get("/api/wizard/?happened=exploded")
    assert response.status_code == 400 and response.json()["error"]
