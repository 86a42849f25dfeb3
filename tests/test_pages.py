"""The pages a person sees: home, search, the taxonomy browser, entries, history, redirects."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kb.models import (
    Check,
    ConfigFlag,
    Entry,
    Family,
    Fix,
    Framework,
    SampleLine,
    Sibling,
    Signature,
    Snippet,
    Symptom,
    Trigger,
)
from kb.taxonomy.store import record_revision
from tests.conftest import make_category, make_entry

SEED_URL = "/kb/ddp-expect-autograd-hooks-assert/"


def test_home_page_offers_one_large_paste_box(client, taxonomy):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<textarea id="paste" name="q"' in html
    assert 'method="post"' in html and "csrfmiddlewaretoken" in html
    assert f"{Entry.objects.published().count()} known entries" in html


def test_pages_load_htmx_from_the_site_itself(client, db):
    html = client.get("/").content.decode()
    assert '<script src="/static/django_htmx/htmx-2.min.js"' in html
    assert "https://" not in html.split("<body")[0]


def test_pasting_the_seed_error_finds_the_seed_entry(client, taxonomy):
    paste = (
        "Traceback (most recent call last):\n"
        '[rank1]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/pytorch/'
        'torch/csrc/distributed/c10d/reducer.cpp":1660, please report a bug to PyTorch.\n'
    )
    response = client.get("/search/", {"q": paste})
    html = response.content.decode()
    assert response.status_code == 200
    assert "DDP-001" in html
    assert "<code>expect_autograd_hooks_ INTERNAL ASSERT FAILED</code>" in html


def test_searching_by_words_and_by_code(client, taxonomy):
    assert "DDP-001" in client.get("/search/", {"q": "reducer assertion backward"}).content.decode()
    opened = client.get("/search/", {"q": "ddp-001"})
    assert (
        opened.status_code == 302 and opened["Location"] == "/kb/ddp-expect-autograd-hooks-assert/"
    )


def test_a_search_with_no_hit_says_so(client, taxonomy):
    html = client.get("/search/", {"q": "zorblax quindle"}).content.decode()
    assert "No entry matches" in html


def test_search_takes_no_post_since_the_paste_box_posts_to_diagnose(client, db):
    assert client.post("/search/", {"q": "   "}).status_code == 405


def test_search_results_come_as_a_fragment_to_htmx(client, taxonomy):
    response = client.get("/search/", {"q": "reducer"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.strip().startswith('<section id="results"')
    assert "DDP-001" in html


def test_pasted_text_is_escaped(client, taxonomy):
    html = client.get("/search/", {"q": "<script>alert(1)</script>"}).content.decode()
    assert "<script>alert(1)</script>" not in html


def test_browser_shows_the_category_tree_with_counts(client, taxonomy):
    html = client.get("/kb/").content.decode()
    assert "Distributed training" in html and "Reducer and graph contract" in html
    for family in Family.objects.exclude(slug="common"):
        total = Entry.objects.published().filter(category__family=family).count()
        assert f'title="entries in this category and below">{total}</span>' in html
    assert SEED_URL in html


def test_browser_counts_leave_out_drafts_for_visitors(client, taxonomy, staff):
    make_entry(status="draft", category=make_category(), title="Secret draft")
    assert "Secret draft" not in client.get("/kb/").content.decode()
    client.force_login(staff)
    assert "Secret draft" in client.get("/kb/").content.decode()


def test_category_page_lists_the_entries_below_it(client, taxonomy):
    html = client.get("/kb/c/distributed-training/").content.decode()
    assert "Reducer and graph contract" in html and SEED_URL in html
    assert client.get("/kb/c/nowhere/").status_code == 404


def test_entry_page_shows_every_part_of_the_entry(client, seed):
    record_revision(seed, "test")
    response = client.get(SEED_URL)
    html = response.content.decode()
    assert response.status_code == 200
    for part in (
        "DDP-001",
        seed.title,
        seed.summary,
        '<h2 id="is-it-this-title">Is it this?</h2>',
        "The same model trains correctly on a single GPU",
        "Is it this failure? The checklist</h2>",
        "Is static_graph on (",
        'id="trigger-reentrant_checkpointing"',
        "The fix to try first</h2>",
        "Use non-reentrant activation checkpointing",
        "<figcaption>Hugging Face Trainer</figcaption>",
        "The training loop these fixes start from",
        "lr_scheduler_type",
        "<h3>What the output looks like</h3>",
        "No no_sync() context - works without error",
        "Log fingerprint",
        "The Denpex platform flags this combination automatically.",
        'href="/kb/ddp-expect-autograd-hooks-assert/history/">revision 1</a>',
    ):
        assert part in html, part


def test_snippets_are_highlighted_on_the_server(client, seed):
    html = client.get(SEED_URL).content.decode()
    assert '<div class="highlight"><pre>' in html
    assert '<span class="n">use_reentrant</span><span class="o">=</span>' in html


def test_siblings_show_how_to_tell_them_apart(client, seed):
    other = make_entry(slug="test-ready-twice", code="TST-005", title="Marked ready twice")
    Sibling.objects.create(entry=seed, other=other, how_to_tell_apart="Raised on iteration 1.")
    html = client.get(SEED_URL).content.decode()
    assert "Similar failures: how to tell them apart" in html
    assert "/kb/test-ready-twice/" in html and "Raised on iteration 1." in html


def test_draft_siblings_are_not_linked_for_visitors(client, seed):
    other = make_entry(slug="secret", code="DDP-099", status="draft")
    Sibling.objects.create(entry=seed, other=other, how_to_tell_apart="Hidden.")
    assert "/kb/secret/" not in client.get(SEED_URL).content.decode()


def test_explanation_markdown_is_sanitised(client, db):
    make_entry(explanation="Fine **bold**\n\n<script>alert(1)</script><img src=x onerror=alert(1)>")
    html = client.get("/kb/test-failure/").content.decode()
    assert "<strong>bold</strong>" in html
    assert "alert(1)" not in html


def test_the_short_permalink_redirects_to_the_canonical_page(client, seed):
    response = client.get("/e/DDP-001")
    assert response.status_code == 302
    assert response["Location"] == SEED_URL
    assert client.get("/e/ddp-001")["Location"] == SEED_URL


def test_old_slugs_and_codes_keep_working_after_a_rename(client, seed):
    seed.slug, seed.code = "ddp-reducer-assert", "DDP-100"
    seed.save()
    response = client.get(SEED_URL)
    assert response.status_code == 301
    assert response["Location"] == "/kb/ddp-reducer-assert/"
    assert client.get("/e/DDP-001")["Location"] == "/kb/ddp-reducer-assert/"
    assert client.get(SEED_URL + "history/")["Location"] == "/kb/ddp-reducer-assert/history/"


@pytest.mark.parametrize("url", ["/kb/no-such-entry/", "/e/NOPE-404", "/nowhere"])
def test_unknown_addresses_get_a_helpful_404_with_search(client, db, url):
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 404
    assert 'role="search"' in html and "paste a traceback" in html


def test_drafts_are_invisible_to_visitors_and_shown_to_staff(client, db, staff):
    make_entry(slug="draft-entry", code="TST-002", status="draft")
    for url in ("/kb/draft-entry/", "/e/TST-002", "/kb/draft-entry/history/"):
        assert client.get(url).status_code == 404, url
    client.force_login(staff)
    html = client.get("/kb/draft-entry/").content.decode()
    assert '<span class="badge">draft</span>' in html


def test_history_lists_revisions_and_shows_what_changed(client, seed, staff):
    record_revision(seed, "load_taxonomy")
    seed.title = "A clearer title"
    seed.save()
    record_revision(seed, "admin", author=staff, message="Clearer title")

    html = client.get(SEED_URL + "history/").content.decode()
    assert "r2" in html and "r1" in html and "Clearer title" in html and "author" in html

    html = client.get(SEED_URL + "history/2/").content.decode()
    assert "Changes since r1" in html
    assert "+title: A clearer title" in html.replace('<span class="gi">', "").replace("</span>", "")
    assert client.get(SEED_URL + "history/9/").status_code == 404


def test_only_get_is_allowed_on_pages(client, seed):
    assert client.post(SEED_URL).status_code == 405
    assert client.delete("/search/").status_code == 405


def _queries_after_an_edit(client, entry, committed):
    """The queries of the entry's page, rendered anew after an edit (a new content version, so
    nothing is served from a cache)."""
    entry.title += "."
    with committed(execute=True):
        entry.save()
        record_revision(entry, "test")
    with CaptureQueriesContext(connection) as captured:
        assert client.get(entry.get_absolute_url()).status_code == 200
    return len(captured.captured_queries)


def test_entry_page_query_count_does_not_grow_with_content(
    client, seed, django_capture_on_commit_callbacks
):
    before = _queries_after_an_edit(client, seed, django_capture_on_commit_callbacks)
    framework = Framework.objects.first()
    others = list(Entry.objects.exclude(pk=seed.pk).exclude(sibling_of__entry=seed)[:3])
    for i, other in enumerate(others):
        Symptom.objects.create(entry=seed, order=100 + i, text=f"Symptom {i}.")
        trigger = Trigger.objects.create(entry=seed, order=100 + i, key=f"more_{i}", text="T.")
        Check.objects.create(entry=seed, order=100 + i, key=f"more_{i}", question="Q?",
                             how_to_check="H.", positive_means="P.", confirms=trigger)  # fmt: skip
        fix = Fix.objects.create(entry=seed, order=100 + i, key=f"more-{i}", title="F", why="W.")
        fix.resolves.add(trigger)
        Snippet.objects.create(fix=fix, framework=framework, code=f"x = {i}")
        Signature.objects.create(entry=seed, order=100 + i, kind="literal", pattern=f"more {i}")
        SampleLine.objects.create(entry=seed, order=100 + i, text=f"more {i}")
        ConfigFlag.objects.create(
            entry=seed, order=100 + i, framework=framework, flag="f", replaces="r"
        )
        Sibling.objects.create(entry=seed, order=100 + i, other=other, how_to_tell_apart="A.")
    assert _queries_after_an_edit(client, seed, django_capture_on_commit_callbacks) == before


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/kb/",
        SEED_URL,
        "/search/?q=static_graph",
        "/wizard/",
        "/diagnose?q="
        + "RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED".replace(" ", "+"),
        "/kb/no-such-entry/",
    ],
)
def test_every_page_links_to_the_site_in_its_header(client, taxonomy, path):
    """The diagnosis page's own context names the user's traceback `frame`: once it hid the
    header's links, which then all pointed at the page itself."""
    html = client.get(path).content.decode()
    header = html.split("<header", 1)[1].split("</header>", 1)[0]
    for link in ('href="/"', 'href="/kb/"', 'href="/wizard/"', 'action="/search/"'):
        assert link in header, (path, link)
