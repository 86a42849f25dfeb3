"""The diagnostic wizard: questions from the knowledge base, state in the URL, a tailored fix."""

import ast
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.conf import settings
from django.http import QueryDict

from kb.diagnosis.repository import diagnose
from kb.models import Entry, Revision
from kb.presentation import wizard_url
from kb.snippets import renderings
from tests.conftest import variables_of
from tests.samples import TRACEBACK
from tools.repro.run import CORPUS_DIR
from tools.repro.scenarios import all_scenarios
from wizard.models import Feedback
from wizard.reasoning import NEUTRAL, YES
from wizard.scope import build_scope
from wizard.state import parse_state

SEED = "ddp-expect-autograd-hooks-assert"
FRAMEWORKS = ("pytorch", "lightning", "hf_trainer", "accelerate")
TAILORING = {"accumulation_steps": "4", "scheduler": "yes"}
VARIABLES = variables_of(settings.TAXONOMY_DIR)
# The most questions a simulated user below may be asked (11 when this was set).
QUESTION_BUDGET = 12


def api(client, pairs):
    response = client.get("/api/wizard/?" + urlencode(pairs))
    assert response.status_code == 200, response.content
    return response.json()


def walk(client, truth, start=SEED, framework=None, limit=30):
    """Answer the wizard as someone whose setup is `truth` (question key -> answer; anything
    else "no"), until the result. Returns (result, the diagnostic questions asked)."""
    result, asked, _ = walk_pairs(client, truth, start, framework, limit)
    return result, asked


def answers_of(scope, hypothesis, neutral="unsure"):
    """What someone whose setup is `hypothesis` answers: yes where its checks expect a yes, no
    where they expect a no, and `neutral` to the questions it says nothing about."""
    answers = {}
    for key, asked in scope.questions.items():
        p = asked.reasoning.p_yes.get(hypothesis, NEUTRAL)
        answers[key] = YES if p > NEUTRAL else "no" if p < NEUTRAL else neutral
    return answers


def walk_pairs(client, truth, start=SEED, framework=None, limit=30, pairs=(), otherwise="no"):
    """walk(), also returning the query pairs of the result page; `pairs` is where to start
    instead (a link from a paste), `otherwise` the answer to what `truth` does not name."""
    pairs, asked = list(pairs) or [("entry", start)], []
    for _ in range(limit):
        step = api(client, pairs)
        if "result" in step:
            return step["result"], asked, pairs
        key = step["question"]["key"]
        if key == "framework":
            answer = framework or step["question"]["choices"][0]
        elif key in TAILORING:
            answer = TAILORING[key]
        else:
            asked.append(key)
            answer = truth.get(key, otherwise)
        assert answer in step["question"]["choices"]
        pairs.append((key, answer))
    raise AssertionError(f"no result after {limit} steps: {pairs}")


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_static_graph_with_no_sync_accumulation_ends_at_the_seed_with_both_causes(
    client, taxonomy, framework
):
    result, _ = walk(
        client, {"static_graph": "yes", "no_sync_mismatch": "yes"}, framework=framework
    )
    assert result["slug"] == SEED
    assert sorted(result["causes"]) == ["no_sync_mismatch", "static_graph"]
    assert result["fix"] == "static-graph-off"
    assert result["framework"] == framework
    assert "static_graph=True" not in result["snippet"]
    if framework == "pytorch":
        ast.parse(result["snippet"])


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_static_graph_with_reentrant_checkpointing_gets_use_reentrant_false(
    client, taxonomy, framework
):
    truth = {"static_graph": "yes", "reentrant_checkpointing": "yes"}
    result, _ = walk(client, truth, framework=framework)
    assert result["causes"] == ["reentrant_checkpointing"]
    assert result["fix"] == "non-reentrant-checkpointing"
    assert "use_reentrant" in result["snippet"] and "False" in result["snippet"]


def test_the_reentrant_result_says_which_versions_it_applies_to(client, taxonomy):
    truth = {"static_graph": "yes", "reentrant_checkpointing": "yes"}
    _, _, pairs = walk_pairs(client, truth, framework="pytorch")
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "Did not reproduce on PyTorch 2.13.0" in html
    assert "use_reentrant" in html


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_several_separately_backwarded_losses_are_summed_into_one_backward(
    client, taxonomy, framework
):
    truth = {"multiple_backward": "yes", "static_graph": "yes"}
    result, _ = walk(client, truth, framework=framework)
    assert result["causes"] == ["multiple_backward"]
    assert result["fix"] == "single-backward"
    assert "+" in result["snippet"]


def test_answers_that_point_to_a_sibling_move_there(client, taxonomy):
    truth = {
        "reentrant_checkpointing": "yes",
        "static_graph": "no",
        "fails_on_first_iteration": "yes",
    }
    result, _ = walk(client, truth)
    assert result["slug"] == "ddp-mark-variable-ready-twice"
    assert result["moved_from"] == SEED


def test_siblings_are_ruled_out_with_the_reason_when_the_seed_fits(client, taxonomy):
    truth = {"static_graph": "yes", "no_sync_mismatch": "yes", "fails_on_first_iteration": "yes"}
    result, _, pairs = walk_pairs(client, truth, framework="pytorch")
    assert result["slug"] == SEED
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "Ruled out" in html and "DDP-005" in html
    assert "you answered yes to “Is static_graph on" in html


def test_it_never_asks_what_is_already_known_and_it_stops(client, taxonomy):
    result, asked = walk(client, {"static_graph": "yes", "no_sync_mismatch": "yes"})
    scope = build_scope(Entry.objects.get(slug=SEED), Entry.objects.published())
    assert len(asked) == len(set(asked)) < len(scope.questions)
    step = api(client, [("entry", SEED), ("static_graph", "yes"), ("known", "static_graph")])
    assert step["question"]["key"] != "static_graph"
    assert step["known"] == {"static_graph": "yes"}


def test_not_sure_is_a_real_answer_that_moves_on(client, taxonomy):
    first = api(client, [("entry", SEED)])["question"]["key"]
    second = api(client, [("entry", SEED), (first, "unsure")])
    assert second["question"]["key"] != first
    assert second["answers"] == {first: "unsure"}


def test_a_paste_pre_answers_what_it_proves(client, taxonomy):
    text = "\n".join(["    model = DDP(model, static_graph=True)", *TRACEBACK])
    html = client.post("/diagnose", {"q": text}).content.decode()
    assert "static_graph=yes" in html and "known=static_graph" in html
    link = html.split('<a class="button" href="')[1].split('"')[0].replace("&amp;", "&")
    page = client.get(link).content.decode()
    assert "already known from your paste" in page
    assert "<code>static_graph=True</code>" in page
    assert "correct this" in page


def test_the_query_string_round_trips(taxonomy, seed):
    scope = build_scope(seed, seed.__class__.objects.all())
    query = "entry=x&static_graph=yes&multiple_backward=unsure&framework=pytorch&accumulation_steps=8&known=static_graph&ev.static_graph=static_graph%3DTrue"  # noqa: E501
    keys = scope.questions.keys()
    state = parse_state(QueryDict(query), keys, {"pytorch"}, VARIABLES)
    again = parse_state(QueryDict(state.query()), keys, {"pytorch"}, VARIABLES)
    assert state.query() == again.query()
    assert parse_qsl(state.query()) == parse_qsl(query)


def test_unknown_keys_and_values_are_ignored_with_a_note(client, taxonomy):
    step = api(client, [("entry", SEED), ("bogus", "1"), ("static_graph", "maybe"),
                        ("accumulation_steps", "3"), ("framework", "keras")])  # fmt: skip
    assert step["answers"] == {}
    notes = " ".join(step["notes"])
    assert "bogus" in notes and "static_graph" in notes
    assert "Ignored accumulation_steps='3': not one of 1, 2, 4, 8, 16." in notes
    assert "framework" in notes


def test_a_renamed_entry_still_resolves(client, seed):
    Revision.objects.create(entry=seed, number=99, source="test", document="")
    seed.slug = "ddp-reducer-assert"
    seed.save()
    step = api(client, [("entry", SEED)])
    assert "now “ddp-reducer-assert”" in step["notes"][0]


def test_a_removed_entry_explains_itself(client, taxonomy):
    response = client.get("/wizard/?entry=no-such-entry")
    assert response.status_code == 404
    assert "which is not (or no longer)" in response.content.decode()
    assert client.get("/api/wizard/?entry=no-such-entry").status_code == 404


def test_starting_from_nothing_offers_what_people_see(client, taxonomy):
    html = client.get("/wizard/").content.decode()
    assert "What do you see?" in html
    assert f"/wizard/?entry={SEED}" in html
    assert "The same model trains correctly on a single GPU" in html


def test_each_step_is_a_plain_form_and_links_that_work_without_javascript(client, taxonomy):
    html = client.get(f"/wizard/?entry={SEED}").content.decode()
    assert '<form class="answer" method="get" action="/wizard/"' in html
    assert f'<input type="hidden" name="entry" value="{SEED}">' in html
    assert 'name="multiple_backward" value="unsure">Not sure</button>' in html or (
        'value="unsure">Not sure</button>' in html
    )
    assert "Restart</a>" in html and "How to check" in html and "Question 1 of about" in html


def test_htmx_gets_only_the_card(client, taxonomy):
    response = client.get(f"/wizard/?entry={SEED}", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<section id="card"')


def test_back_undoes_the_last_answer_but_not_what_the_paste_proved(client, taxonomy):
    pairs = [("entry", SEED), ("static_graph", "yes"), ("known", "static_graph"),
             ("no_sync_mismatch", "yes")]  # fmt: skip
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    back = html.split('<nav class="wizard-nav"')[1].split('href="?')[1].split('"')[0]
    assert dict(parse_qsl(back.replace("&amp;", "&"))) == {
        "entry": SEED,
        "static_graph": "yes",
        "known": "static_graph",
    }


def test_the_result_says_in_words_what_the_snippet_was_tailored_for(client, taxonomy):
    truth = {"static_graph": "yes", "no_sync_mismatch": "yes"}
    _, _, pairs = walk_pairs(client, truth, framework="pytorch")
    pairs = [(k, v) for k, v in pairs if k not in TAILORING]
    extra = [("accumulation_steps", "8"), ("scheduler", "no")]
    html = client.get("/wizard/?" + urlencode([*pairs, *extra]))
    assert "for 8 accumulation steps, without a learning-rate scheduler" in html.content.decode()


def test_the_result_page_shows_the_tailored_snippet_ready_to_copy(client, taxonomy):
    truth = {"static_graph": "yes", "no_sync_mismatch": "yes"}
    _, _, pairs = walk_pairs(client, truth, framework="pytorch")
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "The fix:" in html and '<div class="highlight">' in html
    assert 'id="snippet-code"' in html  # the script adds its copy button (tests/browser)
    assert "Did this fix it?" in html


def test_every_rendered_snippet_of_every_cause_and_framework_is_valid_python(seed):
    for fix in seed.fixes.prefetch_related("snippets__framework"):
        for snippet in fix.snippets.all():
            for _, code in renderings(snippet.code, VARIABLES):
                ast.parse(code)


def test_feedback_is_stored_against_the_entry_and_its_revision(client, seed):
    revision = Revision.objects.filter(entry=seed).first()
    response = client.post(
        "/wizard/feedback",
        {"entry": SEED, "fixed": "yes", "causes": "static_graph", "fix": "static-graph-off",
         "framework": "pytorch", "state": f"entry={SEED}"},
    )  # fmt: skip
    assert response.status_code == 302
    assert response["Location"] == f"/wizard/?entry={SEED}#feedback"
    feedback = Feedback.objects.get()
    assert (feedback.entry, feedback.revision, feedback.fixed) == (seed, revision, True)
    assert client.post("/wizard/feedback", {"entry": SEED, "fixed": "maybe"}).status_code == 400


def test_the_json_mirror_has_the_documented_shape(client, taxonomy):
    step = api(client, [("entry", SEED)])
    assert set(step["question"]) >= {"key", "text", "help", "choices"}
    first, *others = step["candidates"]
    assert first["slug"] == SEED and all(c["probability"] < first["probability"] for c in others)
    result, _ = walk(client, {"static_graph": "yes", "no_sync_mismatch": "yes"})
    assert set(result) >= {"slug", "causes", "framework", "snippet", "confidence"}


def test_questions_per_diagnosis_over_the_taxonomy(client, taxonomy, summary):
    """Simulated users, one per entry and trigger, answering truthfully."""
    rows, counts, wrong, repeated = [], [], [], []
    for entry in Entry.objects.published():
        scope = build_scope(entry, Entry.objects.published())
        for hypothesis in scope.prior:
            if hypothesis.entry != entry.slug:
                continue
            result, asked = walk(client, answers_of(scope, hypothesis), start=entry.slug)
            counts.append(len(asked))
            if len(set(asked)) < len(asked) or not set(asked) <= set(scope.questions):
                repeated.append(f"{entry.slug}:{hypothesis.trigger}: {asked}")
            right = result["slug"] == entry.slug and hypothesis.trigger in result["causes"]
            wrong += [] if right else [f"{entry.slug}:{hypothesis.trigger} -> {result}"]
            rows.append(f"{entry.code} {hypothesis.trigger:28} {len(asked)} questions, {right=}")
    rows.append(f"questions per diagnosis: mean {sum(counts) / len(counts):.1f}, max {max(counts)}")
    summary("simulated wizard users", "\n".join(rows))
    assert wrong == []
    assert repeated == [], "a question asked twice, or one from outside the scope"
    assert max(counts) <= QUESTION_BUDGET


def test_a_user_sure_of_nothing_but_the_paste_ends_at_the_pasted_entry(client, taxonomy):
    """From a captured paste (one per corpus folder), a user who answers "not sure" to every
    question ends at the entry the paste matched: the paste's own facts must not lead away
    from it (PyTorch's messages suggest settings the script never used)."""
    ended_elsewhere = {}
    for folder in sorted(p for p in CORPUS_DIR.iterdir() if p.is_dir() and p.name[0] != "_"):
        capture = min(folder.glob("*.txt"), key=lambda f: ("torchrun" not in f.name, f.name))
        diagnosis = diagnose(capture.read_text())
        url = wizard_url(Entry.objects.get(slug=diagnosis.best.slug), diagnosis.facts)
        pairs = parse_qsl(urlsplit(url).query)
        result, _, _ = walk_pairs(client, {}, pairs=pairs, otherwise="unsure")
        if result["slug"] != folder.name:
            ended_elsewhere[capture.name] = result["slug"]
    assert ended_elsewhere == {}


DESYNCS = sorted({(s.shows, s.slug) for s in all_scenarios() if s.shows})


@pytest.mark.parametrize(("shown", "cause"), DESYNCS, ids=[f"{s}->{c}" for s, c in DESYNCS])
def test_a_timeout_caused_by_a_desync_leads_to_the_entry_of_its_cause(
    client, taxonomy, shown, cause
):
    """The lab's desyncs print nothing but another entry's failure (a plain collective timeout,
    a lost peer); a user who starts there and knows their setup reaches the real cause. Unlike
    the users above, who are unsure of whatever their cause does not mention, this one answers
    "no" to it: one cause, and no slow rank or crashed peer besides."""
    scope = build_scope(Entry.objects.get(slug=shown), Entry.objects.published())
    causes = [h for h in scope.prior if h.entry == cause]
    assert causes, f"{cause} is not reachable from {shown}: add it to {shown}'s siblings"
    for hypothesis in causes:
        result, _ = walk(client, answers_of(scope, hypothesis, neutral="no"), start=shown)
        assert result["slug"] == cause and hypothesis.trigger in result["causes"]
