"""A family is a content pack: the toy family (tests/fixtures/toy), with a framework and two
tailoring variables of its own, works end to end (paste, entry page, wizard, admin) with no code
of its own, and no family's vocabulary is written into the code."""

import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.conf import settings

from kb.models import Family, FamilyRevision
from kb.taxonomy.family import render_parts
from kb.taxonomy.reading import read_taxonomy
from tests.conftest import submit_admin_form

CODE = [Path(settings.BASE_DIR, d) for d in ("kb", "wizard", "config", "templates", "static/js")]
# Words of the first family that once were code. The rest of the vocabulary is read from the
# shipped families: every slug, code and key they declare that is more than a plain word.
DDP_WORDS = ("DDP", "DistributedDataParallel", "torchrun", "NCCL", "gloo", "reducer", "no_sync")
OVERFLOW = "toy-queue-overflow"


def vocabulary():
    taxonomy = read_taxonomy(settings.TAXONOMY_DIR)
    words = {family.slug for family in taxonomy.families}
    for family in taxonomy.families:
        document = family.document
        words |= {c["slug"] for c in document["categories"]}
        words |= {f["key"] for f in document["frameworks"]}
        for name in ("facts", "questions", "variables"):
            words |= {item["key"] for item in document[name]}
    for source in taxonomy.entries:
        document = source.document
        words |= {document["slug"], document["code"]}
        for name in ("triggers", "checks", "fixes"):
            words |= {item["key"] for item in document[name]}
    # A plain word ("common", "hangs", "launcher") is English before it is a key; "framework"
    # is the wizard's own query key, which the framework fact fills.
    distinctive = {w for w in words if re.search(r"[_\-0-9]", w)}
    frameworks = {f["key"] for family in taxonomy.families for f in family.document["frameworks"]}
    return distinctive | frameworks


def test_no_family_is_written_into_the_code():
    # Keys as they are written; the first family's words in any case.
    words = [re.escape(w) for w in sorted(vocabulary())] + [f"(?i:{w})" for w in DDP_WORDS]
    pattern = re.compile(r"(?<![\w-])(" + "|".join(words) + r")(?![\w-])")
    found = []
    for folder in CODE:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".py", ".html", ".js") or "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                found += [f"{path.relative_to(settings.BASE_DIR)}:{number}: {m}" for m in
                          pattern.findall(line)]  # fmt: skip
    assert found == []


def test_the_vocabulary_the_test_looks_for_is_the_families():
    words = vocabulary()
    assert {"accumulation_steps", "static_graph", "hf_trainer", "ddp-reducer", "DDP-001"} <= words


# --- The toy family, end to end ---------------------------------------------------------------


def text_of(html):
    """The page as read: tags dropped, entities decoded (code is split into highlighted spans)."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def api(client, pairs):
    response = client.get("/api/wizard/?" + urlencode(pairs))
    assert response.status_code == 200, response.content
    return response.json()


def walk(client, pairs, answers):
    """Answer each question from `answers` until the result: (result, keys asked)."""
    pairs, asked = list(pairs), []
    while "result" not in (step := api(client, pairs)):
        key = step["question"]["key"]
        asked.append(key)
        assert answers[key] in step["question"]["choices"], (key, step["question"]["choices"])
        pairs.append((key, answers[key]))
    return step["result"], asked, pairs


@pytest.mark.parametrize(
    ("framework", "tailoring", "code"),
    [
        ("plain", ["batch_size", "drop_last"], "make_loader(batch_size=8, drop_last=True)"),
        ("toyfw", ["batch_size"], "toyfw.run(batch_size=8)"),
    ],
)
def test_the_wizard_walks_a_new_family_and_asks_only_what_its_snippet_uses(
    client, toy_kb, framework, tailoring, code
):
    """The framework comes from the paste or from the result's switch (below), never from a
    question: given it, the walk asks the variables of that framework's form and no other."""
    answers = {"big_batches": "yes", "slow_consumer": "no", "producer_died": "no",
               "batch_size": "8", "drop_last": "yes"}  # fmt: skip
    result, asked, _ = walk(client, [("entry", OVERFLOW), ("framework", framework)], answers)
    assert (result["slug"], result["causes"], result["fix"]) == (
        OVERFLOW,
        ["big_batches"],
        "smaller-batches",
    )
    assert asked[-len(tailoring) :] == tailoring
    assert "framework" not in asked
    assert result["framework"] == framework
    assert code in result["snippet"]


def test_the_result_shows_the_first_form_and_switches_to_the_others_without_a_question(
    client, toy_kb
):
    answers = {"big_batches": "yes", "slow_consumer": "no", "producer_died": "no",
               "batch_size": "8", "drop_last": "yes"}  # fmt: skip
    result, asked, pairs = walk(client, [("entry", OVERFLOW)], answers)
    assert "framework" not in asked
    assert (result["framework"], result["frameworks"]) == ("plain", ["plain", "toyfw"])
    page = client.get("/wizard/?" + urlencode(pairs)).content.decode()
    switch = re.search(r'<nav class="forms".*?</nav>', page, re.S).group(0)
    assert '<strong aria-current="true">Plain loop</strong>' in switch
    toyfw = unescape(re.search(r'<a href="\?([^"]+)"[^>]*>Toy Framework</a>', switch).group(1))
    switched = api(client, parse_qsl(toyfw))
    assert (switched["result"]["framework"], switched["result"]["fix"]) == (
        "toyfw",
        "smaller-batches",
    )
    assert "toyfw.run(batch_size=8)" in switched["result"]["snippet"]


def test_the_result_says_what_the_snippet_was_tailored_for_in_the_familys_words(client, toy_kb):
    answers = {"big_batches": "yes", "slow_consumer": "no", "producer_died": "no",
               "framework": "plain", "batch_size": "32", "drop_last": "no"}  # fmt: skip
    _, _, pairs = walk(client, [("entry", OVERFLOW)], answers)
    page = text_of(client.get("/wizard/?" + urlencode(pairs)).content.decode())
    assert "Plain loop, for batches of 32, keeping the last batch" in page
    assert "make_loader(batch_size=32, drop_last=False)" in page


def test_a_variable_value_the_family_does_not_offer_is_ignored_with_a_note(client, toy_kb):
    step = api(client, [("entry", OVERFLOW), ("batch_size", "64")])
    assert "Ignored batch_size='64': not one of 8, 16, 32." in step["notes"]


def test_the_entry_page_shows_the_snippet_for_the_familys_defaults(client, toy_kb):
    page = text_of(client.get(f"/kb/{OVERFLOW}/").content.decode())
    assert "make_loader(batch_size=16, drop_last=False)" in page
    assert "Shown for batches of 16, keeping the last batch." in page
    assert "{{" not in page and "{%" not in page


def test_a_paste_is_read_with_the_familys_facts_wrappers_and_generic_lines(client, toy_kb):
    paste = "\n".join(
        [
            "loader = make_loader(batch_size=128)",
            "Traceback (most recent call last):",
            '  File "/srv/toyfw/runner.py", line 7, in run',
            "    queue.put(batch)",
            "ToyQueueOverflow: queue is full (capacity 64)",
            "toyrun: worker 1 failed first",
            "Traceback (most recent call last):",
            '  File "/srv/toyrun/main.py", line 3, in main',
            "toyrun.WorkerFailed: worker 1 failed",
            "toyrun: the job failed",
        ]
    )
    response = client.post("/api/diagnose", {"text": paste}, content_type="application/json")
    body = response.json()
    assert body["matches"][0]["slug"] == OVERFLOW
    assert body["facts"] == {"big_batch": "yes", "framework": "toyfw"}
    assert body["root"]["type"] == "ToyQueueOverflow"  # not the wrapper around it
    assert body["first_failing_rank"] == 1
    html = client.post("/diagnose", {"q": paste}, follow=True).content.decode()
    link = html.split('<a class="button" href="')[1].split('"')[0].replace("&amp;", "&")
    query = dict(parse_qsl(urlsplit(link).query))
    assert (query["big_batches"], query["framework"]) == ("yes", "toyfw")


# --- Edited in the admin ----------------------------------------------------------------------


def test_a_family_edited_in_the_admin_keeps_its_history_and_shows_at_once(
    client, toy_kb, staff, django_capture_on_commit_callbacks
):
    family = Family.objects.get(slug="toy")
    client.force_login(staff)
    url = f"/admin/kb/family/{family.pk}/change/"
    parts = client.get(url).content.decode().split('name="parts_yaml"')[1]
    assert "says: for batches of 16" in parts
    with django_capture_on_commit_callbacks(execute=True):
        response = submit_admin_form(client, url, {"parts_yaml": _parts_with(
            family, "says: for batches of 16", "says: sixteen at a time")})  # fmt: skip
    assert response.status_code == 302
    latest = FamilyRevision.objects.filter(family=family).first()
    assert (latest.number, latest.source, latest.author) == (2, "admin", staff)
    assert "says: sixteen at a time" in latest.document
    client.logout()
    page = client.get(f"/kb/{OVERFLOW}/").content.decode()
    assert "Shown sixteen at a time, keeping the last batch." in page


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("default: '16'", "default: '64'",
         "variable &#x27;batch_size&#x27;: the default is not one of its choices"),
        ("fact: big_batch=yes", "fact: nothing=yes",
         "Question &#x27;big_batches&#x27;: no fact rule of any family sets &#x27;nothing&#x27;"),
        ("questions:", "questions: [", "not valid YAML"),
    ],
)  # fmt: skip
def test_a_family_edit_the_loader_would_refuse_is_refused_and_nothing_changes(
    client, toy_kb, staff, old, new, message
):
    family = Family.objects.get(slug="toy")
    client.force_login(staff)
    url = f"/admin/kb/family/{family.pk}/change/"
    response = submit_admin_form(client, url, {"parts_yaml": _parts_with(family, old, new)})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Family.objects.get(slug="toy").parts == family.parts
    assert FamilyRevision.objects.filter(family=family).count() == 1


def _parts_with(family, old, new):
    text = render_parts(family.parts)
    assert old in text
    return text.replace(old, new, 1)
