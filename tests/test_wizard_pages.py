"""The wizard's pages and API: state in the URL, plain forms and links under htmx, notes for
what it cannot use, the tailored fix shown ready to copy, feedback. The reasoning itself is in
tests/test_wizard.py."""

import re
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from kb.models import Entry, Revision
from kb.taxonomy.store import record_revision
from tests.samples import TRACEBACK
from tests.simulated import wizard_of
from wizard.models import Feedback

SEED = "ddp-expect-autograd-hooks-assert"
SEED_CAUSES = {"static_graph": "yes", "no_sync_mismatch": "yes"}


def api(client, pairs):
    response = client.get("/api/wizard/?" + urlencode(pairs))
    assert response.status_code == 200, response.content
    return response.json()


def result_pairs(truth, **choices):
    """The query of the result page for a user whose setup is `truth`."""
    _, _, pairs = wizard_of(settings.TAXONOMY_DIR).walk(truth, SEED, **choices)
    return pairs


def test_the_api_answers_as_the_wizard_reasons(client, taxonomy):
    pairs = result_pairs(SEED_CAUSES, framework="pytorch")
    assert api(client, pairs) == wizard_of(settings.TAXONOMY_DIR).step(pairs)


def test_the_reentrant_result_says_which_versions_it_applies_to(client, taxonomy):
    pairs = result_pairs({"static_graph": "yes", "reentrant_checkpointing": "yes"})
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "Did not reproduce on PyTorch 2.13.0" in html
    assert "use_reentrant" in html


def test_siblings_are_ruled_out_with_the_reason_when_the_seed_fits(client, taxonomy):
    pairs = result_pairs({**SEED_CAUSES, "fails_on_first_iteration": "yes"}, framework="pytorch")
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert f"/kb/{SEED}/" in html.split("<h1")[1].split("</h1>")[0]
    assert "Ruled out" in html and "DDP-005" in html
    assert "you answered yes to “Is static_graph on" in html


def test_a_paste_pre_answers_what_it_proves(client, taxonomy):
    text = "\n".join(["    model = DDP(model, static_graph=True)", *TRACEBACK])
    html = client.post("/diagnose", {"q": text}, follow=True).content.decode()
    link = html.split('<a class="button" href="')[1].split('"')[0].replace("&amp;", "&")
    assert link.startswith("/wizard/?")
    query = dict(parse_qsl(link.split("?", 1)[1]))
    assert query["static_graph"] == "yes" and "static_graph" in query["known"].split(",")
    assert query["cand"].startswith(f"{SEED}:")
    page = client.get(link).content.decode()
    assert "already known from your paste" in page
    assert "<code>static_graph=True</code>" in page
    assert "correct this" in page


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


def test_starting_from_nothing_asks_what_happened_instead_of_listing_every_entry(client, taxonomy):
    html = client.get("/wizard/").content.decode()
    assert "What happened?" in html and "?entry=" not in html


def test_each_step_is_a_plain_form_and_links_that_work_without_javascript(client, taxonomy):
    html = client.get(f"/wizard/?entry={SEED}").content.decode()
    assert '<form class="answer" method="get" action="/wizard/"' in html
    assert f'<input type="hidden" name="entry" value="{SEED}">' in html
    assert 'value="unsure">Not sure</button>' in html
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
    tailoring = {"accumulation_steps": "8", "scheduler": "no"}
    pairs = result_pairs(SEED_CAUSES, framework="pytorch", tailoring=tailoring)
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "for 8 accumulation steps, without a learning-rate scheduler" in html


def test_the_result_page_shows_the_tailored_snippet_ready_to_copy(client, taxonomy):
    pairs = result_pairs(SEED_CAUSES, framework="pytorch")
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "The fix:" in html and '<div class="highlight">' in html
    assert 'id="snippet-code"' in html  # the script adds its copy button (tests/browser)
    assert "Did this fix it?" in html


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


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_a_result_page_is_cached_for_everyone_with_each_visitor_s_own_token(taxonomy):
    url = "/wizard/?" + urlencode(result_pairs(SEED_CAUSES))
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    page = first.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = second.get(url)
    assert len(queries) == 0  # served from the page cache
    tokens = [set(TOKEN.findall(r.content.decode())) for r in (page, again)]
    assert all(len(t) == 1 for t in tokens) and tokens[0] != tokens[1]
    assert TOKEN.sub("", page.content.decode()) == TOKEN.sub("", again.content.decode())
    for client, (token,) in zip((first, second), tokens, strict=True):
        vote = {"entry": SEED, "fixed": "yes", "csrfmiddlewaretoken": token}
        assert client.post("/wizard/feedback", vote).status_code == 302
    assert Client(enforce_csrf_checks=True).post("/wizard/feedback", vote).status_code == 403


def test_the_json_mirror_has_the_documented_shape(client, taxonomy):
    step = api(client, [("entry", SEED)])
    assert set(step["question"]) >= {"key", "text", "help", "choices"}
    first, *others = step["candidates"]
    assert first["slug"] == SEED and all(c["probability"] < first["probability"] for c in others)
    result = api(client, result_pairs(SEED_CAUSES))["result"]
    assert set(result) >= {"slug", "causes", "framework", "snippet", "confidence"}


def test_a_draft_sibling_is_in_the_scope_of_staff_only(
    client, taxonomy, staff, django_capture_on_commit_callbacks
):
    api(client, [("entry", SEED)])  # the wizard's content is read for this version
    sibling = Entry.objects.get(slug="ddp-mark-variable-ready-twice")
    sibling.status = Entry.Status.DRAFT
    with django_capture_on_commit_callbacks(execute=True):
        sibling.save()
        record_revision(sibling, "admin")
    candidates = {c["slug"] for c in api(client, [("entry", SEED)])["candidates"]}
    assert "ddp-mark-variable-ready-twice" not in candidates
    client.force_login(staff)
    candidates = {c["slug"] for c in api(client, [("entry", SEED)])["candidates"]}
    assert "ddp-mark-variable-ready-twice" in candidates


def test_a_paste_posted_to_the_api_starts_the_wizard_and_its_query_goes_on(client, taxonomy):
    text = "\n".join(["    model = DDP(model, static_graph=True)", *TRACEBACK])
    first = client.post("/api/wizard/", {"text": text}, content_type="application/json")
    assert first.status_code == 200, first.content
    body = first.json()
    assert body["known"]["static_graph"] == "yes"
    assert body["candidates"][0]["slug"] == SEED
    again = api(client, parse_qsl(body["query"]))
    assert again["question"] == body["question"]


def test_a_paste_the_api_cannot_start_from_is_a_clear_4xx(client, taxonomy):
    refused = client.post("/api/wizard/", {"text": "hello"}, content_type="application/json")
    assert refused.status_code == 422 and "does not recognise" in refused.json()["error"]
    assert client.post("/api/wizard/", "{", content_type="application/json").status_code == 400
    assert client.put("/api/wizard/").status_code == 405


def test_an_undecided_result_says_so_with_the_candidates_and_what_would_separate_them(
    client, taxonomy
):
    """Sure of nothing, from an entry with several causes and fixes: no cause is presented as
    the answer; the page names the candidates and the question that would settle it."""
    wizard = wizard_of(settings.TAXONOMY_DIR)
    _, _, pairs = wizard.walk({}, "cuda-out-of-memory", otherwise="unsure")
    html = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    assert "Your answers do not settle it" in html
    assert "what would tell them apart is" in html
    assert "<h2>Candidates</h2>" in html
