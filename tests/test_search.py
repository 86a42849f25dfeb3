"""The search box, /search/: codes open their entry, error text finds the entry that prints it,
every word is required, the last one as a prefix, and the matching text comes back marked."""

import pytest
from django.conf import settings

from kb import search
from kb.models import Entry
from tests.conftest import make_entry

SEED = "ddp-expect-autograd-hooks-assert"


def codes(query, entries=None):
    results = search.search(query, entries or Entry.objects.published())
    return [hit.entry.code for hit in results.hits]


def test_an_exact_code_in_any_case_opens_its_entry(client, taxonomy):
    response = client.get("/search/", {"q": " ddp-005 "})
    assert response.status_code == 302
    assert response["Location"] == Entry.objects.get(code="DDP-005").get_absolute_url()


def test_a_code_submitted_through_htmx_opens_its_entry_in_the_browser(client, taxonomy):
    headers = {"HX-Request": "true", "HX-Trigger": "search-form"}
    response = client.get("/search/", {"q": "DDP-005"}, headers=headers)
    assert response.status_code == 200
    assert response["HX-Redirect"] == Entry.objects.get(code="DDP-005").get_absolute_url()


def test_a_code_still_being_typed_lists_its_entry_first_instead(client, taxonomy):
    headers = {"HX-Request": "true", "HX-Trigger": "q"}
    response = client.get("/search/", {"q": "DDP-005"}, headers=headers)
    assert response.status_code == 200 and "HX-Redirect" not in response
    html = response.content.decode()
    assert html.index("DDP-005") < html.index("DDP-0", html.index("DDP-005") + 7)


def test_a_code_nobody_has_is_searched_as_words(client, taxonomy):
    response = client.get("/search/", {"q": "ZZZ-999"})
    assert response.status_code == 200 and "No entry matches" in response.content.decode()


@pytest.mark.content
def test_each_entry_is_found_first_by_the_first_line_of_its_sample_output(taxonomy, summary):
    """No entry that does not print the line outranks the one whose sample output starts
    with it: where another entry ranks first, it prints the very same line."""
    entries = Entry.objects.published().prefetch_related("sample_lines")
    rows, first = [], 0
    for entry in entries:
        line = entry.sample_lines.all()[0].text
        found = search.search(line, Entry.objects.published()).hits
        ranked = [hit.entry for hit in found]
        rank = ranked.index(entry) + 1
        above = ranked[: rank - 1]
        for other in above:
            printed = [search._plain(sample.text) for sample in other.sample_lines.all()]
            assert search._plain(line) in printed, (entry.code, other.code, line)
        first += rank == 1
        tied = f" (tied: {', '.join(o.code for o in above)} print the same line)" if above else ""
        rows.append(f"{entry.code:9} rank {rank}{tied}  {line[:70]}")
    summary(
        "search: each published entry's first sample line",
        f"{first} of {len(rows)} at rank 1\n" + "\n".join(rows),
    )
    assert first >= len(rows) - 3


def test_an_error_message_finds_only_the_entry_that_prints_it(taxonomy):
    assert codes("Expected to mark a variable ready only once") == ["DDP-005"]


def test_a_whole_error_line_with_its_own_numbers_still_finds_the_entry_first(taxonomy):
    line = (
        '[rank3]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/opt/src/'
        'torch/csrc/distributed/c10d/reducer.cpp":1811, please report a bug to PyTorch.'
    )
    assert codes(line)[0] == "DDP-001"


def test_static_graph_finds_the_seed_entry(taxonomy):
    assert "DDP-001" in codes("static_graph")


def test_out_of_memory_ranks_the_memory_family_first(taxonomy):
    """Six of its seven entries say "out of memory" in their error text or title; the seventh
    (cuBLAS's CUBLAS_STATUS_ALLOC_FAILED) does not, and may follow entries whose do."""
    found = search.search("out of memory", Entry.objects.published()).hits
    families = [hit.entry.category.family.slug for hit in found]
    assert families[:6] == ["memory"] * 6


def test_every_word_is_required(taxonomy):
    assert codes("reducer zorblax") == []
    for code in codes("reducer backward"):
        text = Entry.objects.get(code=code).search_text.lower()
        assert "reduc" in text and "backward" in text  # "reduced" is a word of the same stem


def test_the_last_word_matches_as_a_prefix_while_it_is_typed(taxonomy):
    assert set(codes("out of mem")[:6]) == set(codes("out of memory")[:6])
    assert "DDP-001" in codes("expect_autograd_ho")
    assert codes("expect_autograd_ho ") == []  # a finished word is a whole word


def test_words_are_matched_by_their_stem(taxonomy):
    assert codes("reducer assertion backward")[0] == "DDP-001"


def test_when_no_entry_has_every_word_those_with_most_come_back_marked_partial(taxonomy):
    results = search.search("reducer backward hooks zorblax", Entry.objects.published())
    assert results.partial and "DDP-001" in [hit.entry.code for hit in results.hits]


def test_a_result_shows_the_matching_text_marked_and_everything_else_escaped(client, taxonomy):
    make_entry(
        slug="escaped-entry",
        code="ESC-001",
        title="<b>Bold</b> quuxfault in the reducer",
        status="published",
    )
    html = client.get("/search/", {"q": "quuxfault"}).content.decode()
    assert "<b>Bold</b>" not in html
    assert "&lt;b&gt;Bold&lt;/b&gt; <mark>quuxfault</mark> in the reducer" in html


def test_the_snippet_prefers_the_error_text_the_entry_prints(client, taxonomy):
    html = client.get("/search/", {"q": "mark a variable ready only once"}).content.decode()
    assert "In its error text:" in html
    assert "<mark>mark a variable ready only once</mark>" in html.lower()


def test_staff_find_drafts_and_visitors_do_not(client, admin_client, taxonomy):
    make_entry(slug="draft-entry", code="DRF-001", title="Quuxdraft failure", status="draft")
    assert "DRF-001" not in client.get("/search/", {"q": "quuxdraft"}).content.decode()
    assert "DRF-001" in admin_client.get("/search/", {"q": "quuxdraft"}).content.decode()
    assert client.get("/search/", {"q": "DRF-001"}).status_code == 200  # no redirect to a 404


def test_highlight_marks_word_starts_only_and_cuts_long_text_around_the_match():
    text = "x" * 500 + " the reducer fired; unreducer does not count " + "y" * 500
    pieces = search.highlight(text, ["reducer"])
    assert [piece for piece, marked in pieces if marked] == ["reducer"]
    assert pieces[0] == ("…", False) and pieces[-1] == ("…", False)
    assert sum(len(piece) for piece, _ in pieces) <= search.SNIPPET_CHARS + 2


def test_the_example_paste_on_the_home_page_is_a_real_capture(client, db):
    html = client.get("/").content.decode()
    assert 'href="/static/examples/ddp-reducer-assertion.txt" data-fills="paste"' in html
    example = settings.BASE_DIR / "static" / "examples" / "ddp-reducer-assertion.txt"
    capture = settings.BASE_DIR / "tests" / "corpus" / "ddp-expect-autograd-hooks-assert"
    original = capture / "static-graph-no-sync-first-step-spawn.txt"
    assert example.read_text() == original.read_text()


def test_favicon_ico_redirects_to_the_svg_every_page_links(client, db):
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
